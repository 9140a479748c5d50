<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko">
<context>
    <name>AcceptanceFigures</name>
    <message>
        <source>llama.cpp timings</source>
        <translation>llama.cpp timings 값</translation>
    </message>
    <message>
        <source>vLLM per-request metrics</source>
        <translation>vLLM 요청별 지표</translation>
    </message>
    <message>
        <source>vLLM /metrics counters</source>
        <translation>vLLM /metrics 카운터</translation>
    </message>
    <message>
        <source>this server does not report acceptance</source>
        <translation>이 서버는 수락률을 보고하지 않습니다</translation>
    </message>
    <message>
        <source>The counters are server-wide, read before and after this request: other requests running on the server at the same time are counted too.</source>
        <extracomment>the notes :mod:`app.core.engines.remote.acceptance` writes (an unknown one is shown as written)</extracomment>
        <translation>카운터는 서버 전체 값이며 이 요청 전후에 읽습니다. 같은 시간에 서버에서 실행된 다른 요청도 함께 집계됩니다.</translation>
    </message>
    <message>
        <source>Accepted tokens are the completion tokens minus the verification passes; the server does not report how many tokens were drafted.</source>
        <translation>수락된 토큰 수는 생성 토큰 수에서 검증 횟수를 뺀 값입니다. 서버는 드래프트한 토큰 수를 보고하지 않습니다.</translation>
    </message>
    <message>
        <source>The server sent no drafting figures with this answer, so Tandem shows none: it may run without a drafter, or be a kind of server that does not report them.</source>
        <translation>서버가 이 답변에 드래프트 수치를 보내지 않아 Tandem은 표시하지 않습니다. 드래프터 없이 실행 중이거나 수치를 보고하지 않는 종류의 서버입니다.</translation>
    </message>
    <message>
        <source>As the server reported them: {source}.</source>
        <translation>서버가 보고한 값: {source}.</translation>
    </message>
    <message>
        <source>{n} draft tokens accepted (drafted not reported)</source>
        <translation>드래프트 토큰 {n}개 수락(드래프트 수는 보고되지 않음)</translation>
    </message>
    <message>
        <source>not reported</source>
        <translation>보고되지 않음</translation>
    </message>
</context>
<context>
    <name>AddServerDialog</name>
    <message>
        <source>Add an MCP server</source>
        <extracomment>the tree&apos;s columns</extracomment>
        <translation>MCP 서버 추가</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>이름</translation>
    </message>
    <message>
        <source>Command or URL</source>
        <translation>명령 또는 URL</translation>
    </message>
    <message>
        <source>npx -y @modelcontextprotocol/server-filesystem ~/notes</source>
        <translation>예: npx -y @modelcontextprotocol/server-filesystem ~/notes</translation>
    </message>
</context>
<context>
    <name>AnswerEnding</name>
    <message>
        <source>context full</source>
        <translation>컨텍스트 가득 참</translation>
    </message>
    <message>
        <source>The answer stopped at the end of the model&apos;s context: the conversation and this answer take {used} tokens, before Max new tokens ({max}) was reached. Start a new chat, or load the model with a larger context length.</source>
        <translation>답변이 모델 컨텍스트의 끝에서 멈췄습니다. 대화와 이 답변이 {used}개 토큰을 차지하며, 최대 생성 토큰 수({max})에는 도달하지 않았습니다. 새 채팅을 시작하거나 더 큰 컨텍스트 길이로 모델을 불러오세요.</translation>
    </message>
    <message>
        <source>Max new tokens reached</source>
        <translation>최대 생성 토큰 수 도달</translation>
    </message>
    <message>
        <source>The answer stopped at Max new tokens ({max}). Raise it in the conversation settings, or ask the model to go on.</source>
        <translation>답변이 최대 생성 토큰 수({max})에서 멈췄습니다. 대화 설정에서 값을 올리거나 모델에게 계속하라고 요청하세요.</translation>
    </message>
    <message>
        <source>length limit reached</source>
        <translation>길이 한도 도달</translation>
    </message>
    <message>
        <source>The answer stopped at Max new tokens or at the end of the model&apos;s context.</source>
        <translation>답변이 최대 생성 토큰 수 또는 모델 컨텍스트의 끝에서 멈췄습니다.</translation>
    </message>
    <message>
        <source>the model ended its answer</source>
        <translation>모델이 답변을 마침</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>중지됨</translation>
    </message>
    <message>
        <source>an error stopped it</source>
        <translation>오류로 중지됨</translation>
    </message>
</context>
<context>
    <name>Attachments</name>
    <message>
        <source>the file is empty</source>
        <extracomment>the longest side of a thumbnail in a message and in the composer</extracomment>
        <translation>파일이 비어 있습니다</translation>
    </message>
    <message>
        <source>the image is {mb:.1f} MB; the limit is {limit} MB (save it smaller or as JPEG)</source>
        <translation>이미지가 {mb:.1f} MB입니다. 한도는 {limit} MB입니다(더 작게 또는 JPEG로 저장하세요)</translation>
    </message>
    <message>
        <source>SVG drawings are not supported; export it as PNG or JPEG and attach that</source>
        <translation>SVG 그림은 지원하지 않습니다. PNG 또는 JPEG로 내보내 첨부하세요</translation>
    </message>
    <message>
        <source>{fmt} images are not supported; use PNG, JPEG, WebP, GIF or BMP</source>
        <translation>{fmt} 이미지는 지원하지 않습니다. PNG, JPEG, WebP, GIF 또는 BMP를 사용하세요</translation>
    </message>
    <message>
        <source>the image has more than {limit} megapixels; scale it down and attach it again</source>
        <translation>이미지가 {limit}메가픽셀을 넘습니다. 축소한 뒤 다시 첨부하세요</translation>
    </message>
    <message>
        <source>this is not an image Tandem can read (PNG, JPEG, WebP, GIF or BMP)</source>
        <translation>Tandem이 읽을 수 있는 이미지가 아닙니다(PNG, JPEG, WebP, GIF 또는 BMP)</translation>
    </message>
    <message>
        <source>the image is damaged or cut short</source>
        <translation>이미지가 손상되었거나 잘려 있습니다</translation>
    </message>
    <message>
        <source>the file cannot be read</source>
        <translation>파일을 읽을 수 없습니다</translation>
    </message>
    <message>
        <source>the image cannot be saved; free some disk space and send again</source>
        <translation>이미지를 저장할 수 없습니다. 디스크 공간을 확보한 뒤 다시 보내세요</translation>
    </message>
</context>
<context>
    <name>AutoPanel</name>
    <message>
        <source>Checking for a stored measurement…</source>
        <translation>저장된 측정 결과를 확인하는 중…</translation>
    </message>
    <message>
        <source>Measuring which speculation pays on this machine…</source>
        <translation>이 컴퓨터에서 어떤 추측 디코딩이 이득인지 측정하는 중…</translation>
    </message>
    <message>
        <source>Auto chose: {config}</source>
        <translation>Auto의 선택: {config}</translation>
    </message>
    <message>
        <source>Measured in {seconds:.0f} s; stored in {path}</source>
        <translation>{seconds:.0f}초 동안 측정, {path}에 저장됨</translation>
    </message>
    <message>
        <source>Auto could not measure: {reason}</source>
        <translation>Auto가 측정하지 못했습니다: {reason}</translation>
    </message>
    <message>
        <source>The measurement was cancelled; nothing was stored.</source>
        <translation>측정이 취소되어 아무것도 저장되지 않았습니다.</translation>
    </message>
    <message>
        <source>Learned from your answers: {routes}</source>
        <translation>답변에서 배운 것: {routes}</translation>
    </message>
    <message>
        <source>{config} within {error}% ({answers} answers)</source>
        <translation>{config}: 오차 {error}% (답변 {answers}개)</translation>
    </message>
    <message>
        <source>Predictions against your answers: {rows}</source>
        <translation>예측과 실제 답변의 차이: {rows}</translation>
    </message>
    <message>
        <source>After every answer Tandem predicts what each configuration would have done on it, from its drafts replayed over the answer and what each pass costs on this machine. The configuration that answered is predicted too: this is the median gap between that prediction and the speed the answer measured.</source>
        <translation>Tandem은 답변마다 각 구성이 그 답변에서 어떻게 했을지 예측합니다. 답변 위에 재생한 초안과 이 컴퓨터에서 각 패스에 드는 비용을 바탕으로 합니다. 답변한 구성도 예측됩니다. 여기 표시된 값은 그 예측과 답변의 실측 속도 사이 차이의 중앙값입니다.</translation>
    </message>
    <message>
        <source>prose</source>
        <translation>산문</translation>
    </message>
    <message>
        <source>code edit</source>
        <translation>코드 수정</translation>
    </message>
    <message>
        <source>repeat</source>
        <translation>반복 요청</translation>
    </message>
    <message>
        <source>agent turn</source>
        <translation>에이전트 차례</translation>
    </message>
    <message>
        <source>document question</source>
        <translation>문서 질문</translation>
    </message>
    <message>
        <source>{measured}, for {kinds}</source>
        <translation>{measured}, {kinds}에 사용</translation>
    </message>
    <message>
        <source>{measured}, not used</source>
        <translation>{measured}, 사용 안 함</translation>
    </message>
    <message>
        <source>off: nothing was faster than plain decoding beyond the measured noise</source>
        <translation>끔: 측정된 잡음을 넘어 일반 디코딩보다 빠른 구성이 없었습니다</translation>
    </message>
    <message>
        <source>off: no configuration was faster without being slower on prose</source>
        <translation>끔: 산문에서 느려지지 않으면서 더 빠른 구성이 없었습니다</translation>
    </message>
    <message>
        <source>Auto: measure and use what pays on this machine</source>
        <translation>Auto: 측정해서 이 컴퓨터에서 이득인 방식을 사용</translation>
    </message>
    <message>
        <source>Auto compares speculation off with the drafter at a few depths and the engine&apos;s model-free methods on short fixed prompts, once per model, drafter, engine and machine, and keeps the fastest that is never slower on prose; configurations within the measured noise of each other are a tie, and a tie goes to the cheaper one. It measures in the background while you are idle and answers meanwhile with its best guess; a choice that loses on your answers is dropped. Choosing a drafter or a model-free method yourself turns Auto off.</source>
        <translation>Auto는 짧은 고정 프롬프트에서 추측 디코딩 끔을 몇 가지 깊이의 드래프터 및 엔진의 모델 없는 방법과 비교하고(모델, 드래프터, 엔진, 기기마다 한 번), 산문에서 절대 느려지지 않는 가장 빠른 구성을 유지합니다. 측정된 잡음 안에서 서로 비슷한 구성은 동률로 보며, 동률이면 비용이 더 적은 쪽을 고릅니다. 유휴 시간에 백그라운드에서 측정하고 그동안은 최선의 추정으로 답합니다. 실제 답변에서 진 선택은 제외됩니다. 드래프터나 모델 없는 방법을 직접 고르면 Auto가 꺼집니다.</translation>
    </message>
    <message>
        <source>Re-measure</source>
        <extracomment>what Auto learned from real answers, per kind how far the cost model&apos;s predictions were from the answers&apos; measured speed, per configuration: (median |predicted / measured - 1|, answers)</extracomment>
        <translation>다시 측정</translation>
    </message>
    <message>
        <source>Measure now</source>
        <translation>지금 측정</translation>
    </message>
    <message>
        <source>Auto chooses once the settings below can launch: see the message there.</source>
        <translation>아래 설정으로 실행할 수 있게 되면 Auto가 고릅니다. 그곳의 메시지를 확인하세요.</translation>
    </message>
    <message>
        <source>Not measured yet: once the model is downloaded, Auto answers at once and measures in the background while you are idle.</source>
        <translation>아직 측정하지 않음: 모델을 내려받으면 Auto가 바로 답하고, 사용하지 않는 동안 백그라운드에서 측정합니다.</translation>
    </message>
    <message>
        <source>Not measured yet: Auto answers with {config} at once and measures in the background while you are idle (about {seconds} s).</source>
        <translation>아직 측정하지 않음: Auto가 먼저 {config}(으)로 바로 답하고, 사용하지 않는 동안 백그라운드에서 측정합니다(약 {seconds}초).</translation>
    </message>
    <message>
        <source>{kind}: {config}, not enough answers yet ({answers} so far)</source>
        <translation>{kind}: {config}, 아직 답변이 부족함(지금까지 {answers}개)</translation>
    </message>
    <message>
        <source>{kind}: {config}, {figure}, from {answers} answers</source>
        <translation>{kind}: {config}, {figure}, 답변 {answers}개 기준</translation>
    </message>
    <message>
        <source>Auto records each answer&apos;s speed per kind of request and configuration. A route moves only when another configuration is faster beyond the measured noise, and now and then an answer tries an alternative that could be faster.</source>
        <translation>Auto는 요청 종류와 구성별로 답변마다의 속도를 기록합니다. 다른 구성이 측정된 잡음을 넘어 더 빠를 때만 경로가 바뀌며, 가끔 한 답변이 더 빠를 수 있는 다른 구성을 시험합니다.</translation>
    </message>
    <message>
        <source>{speedup:.2f}x faster (at least {low:.2f}x)</source>
        <translation>{speedup:.2f}x 빠름(최소 {low:.2f}x)</translation>
    </message>
    <message>
        <source>slower ({speedup:.2f}x the speed)</source>
        <translation>느림(속도 {speedup:.2f}x)</translation>
    </message>
    <message>
        <source>no clear difference ({speedup:.2f}x)</source>
        <translation>뚜렷한 차이 없음({speedup:.2f}x)</translation>
    </message>
    <message>
        <source>Each figure is a speed against speculation off on this machine. Faster and slower are sure beyond the measured noise, and &quot;at least&quot; is the lowest the speedup is likely to be. No clear difference: the two speeds are within the noise. Not enough answers yet, or too uncertain to tell: the figure could still be far off either way.</source>
        <translation>각 수치는 이 컴퓨터에서 추측을 끈 경우와 비교한 속도입니다. &apos;빠름&apos;과 &apos;느림&apos;은 측정된 잡음을 넘어 확실하며, &apos;최소&apos;는 속도 향상이 가질 만한 가장 낮은 값입니다. 뚜렷한 차이 없음: 두 속도가 잡음 범위 안에 있습니다. 아직 답변이 부족하거나 판단하기에 너무 불확실함: 수치가 아직 어느 쪽으로든 크게 틀릴 수 있습니다.</translation>
    </message>
    <message>
        <source>{config}: {prose} on prose, {code} on code edits, {repeat} on repeats</source>
        <translation>{config}: 산문 {prose}, 코드 수정 {code}, 반복 요청 {repeat}</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>측정 안 함</translation>
    </message>
    <message>
        <source>too uncertain to tell</source>
        <translation>판단하기에 너무 불확실함</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
</context>
<context>
    <name>AutoTuner</name>
    <message>
        <source>Auto: {config} (changed from {old}: {why})</source>
        <extracomment>the name of the calibration&apos;s thread the calibration under way (on a thread of its own, :meth:`~app.gui.ops.Ops.start_own`) free memory now (bytes); tests replace it</extracomment>
        <translation>Auto: {config} ({old}에서 변경: {why})</translation>
    </message>
    <message>
        <source>Auto: {config} (not measured: too little free memory)</source>
        <translation>Auto: {config} (측정 안 함: 여유 메모리 부족)</translation>
    </message>
    <message>
        <source>Auto: {config} while measuring</source>
        <translation>Auto: {config} (측정 중)</translation>
    </message>
    <message>
        <source>Measuring would load the model twice more beside the chat ({need} GB) and {free} GB is free, so Auto does not measure in the background: it keeps the best guess for this model and still demotes it if your answers come out slower than plain. Close other programs and Auto measures at the next idle moment, or use Re-measure in the launch dialog.</source>
        <translation>측정하려면 채팅 외에 모델을 두 번 더 불러와야 하는데({need} GB) 여유 메모리가 {free} GB뿐이라 Auto는 백그라운드에서 측정하지 않습니다. 이 모델에 대한 최선의 추정을 유지하며, 답변이 일반 디코딩보다 느리면 여전히 강등합니다. 다른 프로그램을 닫으면 다음 유휴 시점에 측정하며, 실행 대화상자의 &apos;다시 측정&apos;도 사용할 수 있습니다.</translation>
    </message>
    <message>
        <source>Nothing is measured on this machine yet, so Auto answers with the best guess for this model and measures which speculation pays while you are idle. A new message stops the measurement at once; Auto switches between answers, never during one.</source>
        <translation>이 컴퓨터에서는 아직 측정하지 않았으므로 Auto가 이 모델에 대한 가장 좋은 추정으로 답하고, 사용하지 않는 동안 어떤 추측 디코딩이 이득인지 측정합니다. 새 메시지를 보내면 측정이 바로 멈춥니다. Auto는 답변과 답변 사이에만 바꾸며, 답변 도중에는 바꾸지 않습니다.</translation>
    </message>
    <message>
        <source>measured on this machine</source>
        <translation>이 컴퓨터에서 측정함</translation>
    </message>
    <message>
        <source>{ratio} vs plain on your answers</source>
        <translation>실제 답변에서 일반 디코딩 대비 {ratio}</translation>
    </message>
</context>
<context>
    <name>BrowserPage</name>
    <message>
        <source>This entry is invalid and was skipped: {reason}</source>
        <translation>이 항목은 유효하지 않아 건너뛰었습니다: {reason}</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>채팅</translation>
    </message>
    <message>
        <source>Continues text (base model)</source>
        <translation>텍스트 이어 쓰기(기본 모델)</translation>
    </message>
    <message>
        <source>Reasoning</source>
        <translation>추론</translation>
    </message>
    <message>
        <source>Built-in MTP heads</source>
        <translation>내장 MTP 헤드</translation>
    </message>
    <message>
        <source>{tokens} tokens of context</source>
        <translation>컨텍스트 {tokens} 토큰</translation>
    </message>
    <message>
        <source>{verdict} at {ctx} tokens</source>
        <translation>{verdict} (컨텍스트 {ctx} 토큰)</translation>
    </message>
    <message>
        <source>Largest quantization that fits: {quant}</source>
        <translation>들어가는 가장 큰 양자화: {quant}</translation>
    </message>
    <message>
        <source>Fits in memory</source>
        <translation>메모리에 들어갑니다</translation>
    </message>
    <message>
        <source>Tight: it needs most of the free memory</source>
        <translation>빠듯함: 남은 메모리 대부분이 필요합니다</translation>
    </message>
    <message>
        <source>Too large for this machine&apos;s free memory</source>
        <translation>이 컴퓨터의 남은 메모리로는 너무 큽니다</translation>
    </message>
    <message>
        <source>Memory need unknown</source>
        <translation>필요한 메모리를 알 수 없습니다</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>What this model can do, from its model card and configuration</source>
        <translation>이 모델이 할 수 있는 일(모델 카드와 설정 기준)</translation>
    </message>
    <message>
        <source>Search models</source>
        <translation>모델 검색</translation>
    </message>
    <message>
        <source>All formats</source>
        <translation>모든 형식</translation>
    </message>
    <message>
        <source>All sizes</source>
        <translation>모든 크기</translation>
    </message>
    <message>
        <source>Under 1B</source>
        <translation>1B 미만</translation>
    </message>
    <message>
        <source>1B to 5B</source>
        <translation>1B~5B</translation>
    </message>
    <message>
        <source>5B to 15B</source>
        <translation>5B~15B</translation>
    </message>
    <message>
        <source>Over 15B</source>
        <translation>15B 초과</translation>
    </message>
    <message>
        <source>Has drafter</source>
        <translation>드래프트 있음</translation>
    </message>
    <message>
        <source>Reads images</source>
        <translation>이미지 읽기</translation>
    </message>
    <message>
        <source>Only models that can read images you attach</source>
        <translation>첨부한 이미지를 읽을 수 있는 모델만 표시</translation>
    </message>
    <message>
        <source>Calls tools</source>
        <translation>도구 호출</translation>
    </message>
    <message>
        <source>Together: {size}</source>
        <extracomment>The detail card repaints at most this often while the selection changes (about 30 frames/s).</extracomment>
        <translation>합계: {size}</translation>
    </message>
    <message>
        <source>Only models that can call tools (functions) you describe</source>
        <translation>설명한 도구(함수)를 호출할 수 있는 모델만 표시</translation>
    </message>
    <message>
        <source>Only models that declare a drafter for speculative decoding</source>
        <translation>추측 디코딩용 드래프트 모델을 선언한 모델만</translation>
    </message>
    <message>
        <source>Downloaded</source>
        <translation>다운로드됨</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>다운로드</translation>
    </message>
    <message>
        <source>Refresh from hub</source>
        <translation>허브에서 새로 고침</translation>
    </message>
    <message>
        <source>Read the quantizations this variant&apos;s repositories hold now (the catalog lists what was published when it was written); new ones are added, missing ones are named.</source>
        <translation>이 변형의 저장소에 지금 있는 양자화를 읽어 옵니다(카탈로그에는 작성 당시 공개된 것이 실려 있습니다). 새 양자화는 추가되고, 없는 양자화는 이름이 표시됩니다.</translation>
    </message>
    <message>
        <source>with its drafter</source>
        <translation>드래프트 포함</translation>
    </message>
    <message>
        <source>Also download the recommended drafter quantization</source>
        <translation>권장 드래프트 모델 양자화도 함께 다운로드</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>삭제</translation>
    </message>
    <message>
        <source>Launch…</source>
        <translation>실행…</translation>
    </message>
    <message>
        <source>● downloaded   ◐ partly downloaded   ○ not downloaded</source>
        <translation>● 다운로드됨   ◐ 일부 다운로드   ○ 다운로드 안 됨</translation>
    </message>
</context>
<context>
    <name>Calibration</name>
    <message>
        <source>loading the model without speculation</source>
        <translation>투기 없이 모델을 불러오는 중</translation>
    </message>
    <message>
        <source>{config}: speed without speculation</source>
        <translation>{config}: 투기 없이의 속도</translation>
    </message>
    <message>
        <source>loading {config}</source>
        <translation>{config} 불러오는 중</translation>
    </message>
    <message>
        <source>{config}: prose, speculation off</source>
        <translation>{config}: 산문, 투기 끔</translation>
    </message>
    <message>
        <source>{config}: prose</source>
        <translation>{config}: 산문</translation>
    </message>
    <message>
        <source>{config}: code edit, speculation off</source>
        <translation>{config}: 코드 수정, 투기 끔</translation>
    </message>
    <message>
        <source>{config}: code edit</source>
        <translation>{config}: 코드 수정</translation>
    </message>
    <message>
        <source>{config}: the same code edit again</source>
        <translation>{config}: 같은 코드 수정을 다시</translation>
    </message>
    <message>
        <source>{config}: prose again, speculation off</source>
        <translation>{config}: 산문 다시, 투기 끔</translation>
    </message>
    <message>
        <source>{config}: prose again</source>
        <translation>{config}: 산문 다시</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>측정 완료</translation>
    </message>
</context>
<context>
    <name>ChatController</name>
    <message>
        <source>The tool servers could not be read</source>
        <extracomment>the running answer of each conversation that has one shows and saves the running answers as they grow (its timer&apos;s tick is :meth:`_flush`) the conversation&apos;s model, switched to before its answer a message waiting for its conversation&apos;s model to load ends the answers: their rows, bubbles and figures, or the failure reported runs each answer&apos;s task (a window&apos;s operations, or the chat&apos;s own without one) puts each answer&apos;s documents into its prompt; opens the documents&apos; files reads each answer from the engine host the MCP servers offered to the model (None without ops: no tools) runs a message&apos;s tool loop (None without tools)</extracomment>
        <translation>도구 서버를 읽을 수 없습니다</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>새 대화</translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation>모델 없음</translation>
    </message>
    <message>
        <source>The model is still loading.</source>
        <translation>모델을 아직 불러오는 중입니다.</translation>
    </message>
    <message>
        <source>Your message stays in the box; send it again once the load bar is gone.</source>
        <translation>메시지는 입력란에 남아 있습니다. 로딩 막대가 사라지면 다시 보내세요.</translation>
    </message>
    <message>
        <source>No model is loaded.</source>
        <translation>불러온 모델이 없습니다.</translation>
    </message>
    <message>
        <source>Load a model from the Models page, then send again.</source>
        <translation>&apos;모델&apos; 페이지에서 모델을 불러온 뒤 다시 보내세요.</translation>
    </message>
    <message>
        <source>Loading {model}…</source>
        <translation>{model} 불러오는 중…</translation>
    </message>
    <message>
        <source>This message needs {needed} tokens with the system prompt, but the model&apos;s context holds {n_ctx} tokens and {reserved} of them are kept for the answer.</source>
        <extracomment>the conversation shown, if any the chat&apos;s actions follow its running answers</extracomment>
        <translation>이 메시지는 시스템 프롬프트를 포함해 {needed}개 토큰이 필요하지만, 모델의 컨텍스트는 {n_ctx}개 토큰이고 그중 {reserved}개는 답변용으로 남겨 둡니다.</translation>
    </message>
    <message>
        <source>Shorten the message, lower Max new tokens in Sampling, or load the model with a larger context length.</source>
        <translation>메시지를 줄이거나, &apos;샘플링&apos;에서 &apos;최대 생성 토큰 수&apos;를 낮추거나, 더 큰 컨텍스트 길이로 모델을 불러오세요.</translation>
    </message>
    <message>
        <source>The answer could not be generated</source>
        <translation>답변을 생성하지 못했습니다</translation>
    </message>
    <message>
        <source>This answer&apos;s model is not loaded.</source>
        <extracomment>the answer being measured the documents of its conversation, by stored name</extracomment>
        <translation>이 답변의 모델이 로드되어 있지 않습니다.</translation>
    </message>
    <message>
        <source>Load {model} again to measure this answer.</source>
        <translation>이 답변을 측정하려면 {model}을(를) 다시 불러오세요.</translation>
    </message>
    <message>
        <source>The answer could not be measured</source>
        <translation>답변을 측정할 수 없습니다</translation>
    </message>
    <message>
        <source>Off</source>
        <extracomment>the choice of a chat not yet stored the configuration that wrote each conversation&apos;s last answer in this session: the header names the shown conversation&apos;s (a new chat has none)</extracomment>
        <translation>끔</translation>
    </message>
    <message>
        <source>This conversation&apos;s speculation choice is {choice}, but the loaded model runs {running} and cannot change it without a reload.</source>
        <translation>이 대화의 추측 선택은 {choice}이지만, 로드된 모델은 {running}(으)로 실행 중이며 다시 로드하지 않으면 바꿀 수 없습니다.</translation>
    </message>
    <message>
        <source>no speculation</source>
        <translation>추측 없음</translation>
    </message>
    <message>
        <source>Choose Auto beside the conversation&apos;s title, or reload the model with that choice.</source>
        <translation>대화 제목 옆에서 Auto를 선택하거나, 그 선택으로 모델을 다시 로드하세요.</translation>
    </message>
    <message>
        <source>An image</source>
        <translation>이미지</translation>
    </message>
    <message>
        <source>{n} images</source>
        <translation>이미지 {n}장</translation>
    </message>
    <message>
        <source>The models on disk could not be read</source>
        <extracomment>its id in the local API (as ``tandem serve --all`` names it) the model of a chat not yet stored (&quot;&quot;: the loaded one) the models on disk were read (they are read when first needed: the list opens, a conversation that chose a model answers, the Local server starts)</extracomment>
        <translation>디스크의 모델을 읽을 수 없습니다</translation>
    </message>
    <message>
        <source>Reading {file}…</source>
        <extracomment>what the worker reports: (&quot;reading&quot; | &quot;indexing&quot;, file name) or (&quot;fitting&quot;, &quot;&quot;)</extracomment>
        <translation>{file} 읽는 중…</translation>
    </message>
    <message>
        <source>Finding the passages of {file}…</source>
        <translation>{file}에서 관련 구절을 찾는 중…</translation>
    </message>
    <message>
        <source>Reading the documents…</source>
        <translation>문서를 읽는 중…</translation>
    </message>
    <message>
        <source>{file} cannot be opened.</source>
        <extracomment>the chat&apos;s sampling now (its max new tokens set the answer&apos;s reserve) opens a file&apos;s address with the desktop&apos;s application for it</extracomment>
        <translation>{file}을(를) 열 수 없습니다.</translation>
    </message>
    <message>
        <source>Its stored copy is gone or unreadable; attach the file again.</source>
        <translation>저장된 사본이 없거나 읽을 수 없습니다. 파일을 다시 첨부하세요.</translation>
    </message>
    <message>
        <source>The message it was attached to is no longer in this conversation.</source>
        <translation>이 파일을 첨부한 메시지가 이 대화에 더 이상 없습니다.</translation>
    </message>
</context>
<context>
    <name>ChatTools</name>
    <message>
        <source>The tool servers could not be started</source>
        <extracomment>the stored servers; None until read (the first second of a start) the loop&apos;s options for each message (the turn cap); a message&apos;s tool choice is its own the running servers (None until the configuration is read)</extracomment>
        <translation>도구 서버를 시작할 수 없습니다</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <source>Highlight drafted tokens</source>
        <extracomment>a conversation opens with its last messages built at once, the earlier ones a batch per turn where a stored image name&apos;s file is (the controller sets it from its chat store) where a stored document name&apos;s file is (set like image_path) earlier messages of the shown conversation still to be built (oldest first) the user is reading earlier messages while they are built above: this built bubble stays this far (column y minus scroll value) from the top of the view, however tall the messages built above it are (a range delta was fooled by Qt&apos;s passing range of 0) the loaded family&apos;s ``tool_parser``; None: tagged tool calls are still found by their tags</extracomment>
        <translation>드래프트 토큰 강조</translation>
    </message>
    <message>
        <source>Shade the text that came from accepted drafts: the model verified it instead of producing it one token at a time.</source>
        <translation>수락된 드래프트에서 나온 텍스트에 배경색을 칠합니다. 모델이 토큰을 하나씩 생성하지 않고 한 번에 검증한 부분입니다.</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>샘플링</translation>
    </message>
    <message>
        <source>System prompt and sampling settings of this conversation</source>
        <translation>이 대화의 시스템 프롬프트와 샘플링 설정</translation>
    </message>
    <message>
        <source>Ask anything. Answers stream here with their speed and acceptance statistics.</source>
        <translation>무엇이든 물어보세요. 답변이 속도와 수락률 통계와 함께 여기에 실시간으로 표시됩니다.</translation>
    </message>
    <message>
        <source>Switch speculation off</source>
        <translation>추측 디코딩 끄기</translation>
    </message>
    <message>
        <source>Re-measure</source>
        <translation>다시 측정</translation>
    </message>
    <message>
        <source>Auto chose {method}, but {slower} of your last {n} answers were slower than without speculation ({ratios}).</source>
        <translation>Auto가 {method}을(를) 선택했지만 최근 답변 {n}개 중 {slower}개가 추측 디코딩 없이보다 느렸습니다({ratios}).</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Images and documents ({patterns})</source>
        <extracomment>the message box&apos;s height at rest (about three lines), and the share of the window it may grow to the enabled servers&apos; states and the names of the tools offered (see set_tools) images waiting to be sent with the message the loaded model reads images (None: nothing loaded); attachments to a model that does not are named in the notice at once, before anything is sent documents waiting to be sent with the message (some may still be being read) reads documents off the GUI thread (None: read at once, on this thread) Send was pressed while documents were being read: the message goes once they are</extracomment>
        <translation>이미지와 문서 ({patterns})</translation>
    </message>
    <message>
        <source>Images ({patterns})</source>
        <translation>이미지 ({patterns})</translation>
    </message>
    <message>
        <source>Documents ({patterns})</source>
        <translation>문서 ({patterns})</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>모든 파일 (*)</translation>
    </message>
    <message>
        <source>Attach images or documents</source>
        <translation>이미지나 문서 첨부</translation>
    </message>
    <message>
        <source>At most {n} images per message; the rest were not attached.</source>
        <translation>메시지당 이미지는 최대 {n}장입니다. 나머지는 첨부하지 않았습니다.</translation>
    </message>
    <message>
        <source>pasted image {n}</source>
        <translation>붙여 넣은 이미지 {n}</translation>
    </message>
    <message>
        <source>At most {n} documents per message; the rest were not attached.</source>
        <translation>메시지당 문서는 최대 {n}개입니다. 나머지는 첨부하지 않았습니다.</translation>
    </message>
    <message>
        <source>Auto</source>
        <translation>자동</translation>
    </message>
    <message>
        <source>None</source>
        <translation>사용 안 함</translation>
    </message>
    <message>
        <source>Any tool</source>
        <translation>아무 도구</translation>
    </message>
    <message>
        <source>Call {name}</source>
        <translation>{name} 호출</translation>
    </message>
    <message>
        <source>running</source>
        <translation>실행 중</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>시작 중</translation>
    </message>
    <message>
        <source>failed: {reason}</source>
        <translation>실패: {reason}</translation>
    </message>
    <message>
        <source>not started</source>
        <translation>시작 안 됨</translation>
    </message>
    <message>
        <source>1 tool</source>
        <translation>도구 1개</translation>
    </message>
    <message>
        <source>{n} tools</source>
        <translation>도구 {n}개</translation>
    </message>
    <message>
        <source>{tools} · starting…</source>
        <translation>{tools} · 시작 중…</translation>
    </message>
    <message>
        <source>{tools} · {servers} failed</source>
        <translation>{tools} · {servers} 실패</translation>
    </message>
    <message>
        <source>Tools the model is offered</source>
        <translation>모델에 제공되는 도구</translation>
    </message>
    <message>
        <source>The servers have not started yet.</source>
        <translation>서버가 아직 시작되지 않았습니다.</translation>
    </message>
    <message>
        <source>Turn tools on or off in Settings → Tools.</source>
        <translation>도구는 설정 → 도구에서 켜거나 끕니다.</translation>
    </message>
    <message>
        <source>Sending once {file} is read…</source>
        <translation>{file}을(를) 다 읽으면 보냅니다…</translation>
    </message>
    <message>
        <source>The loaded model cannot read images: load a vision model to send these.</source>
        <translation>로드된 모델은 이미지를 읽을 수 없습니다. 보내려면 비전 모델을 로드하세요.</translation>
    </message>
    <message>
        <source>Message the model (Enter to send, Shift+Enter for a new line)</source>
        <translation>모델에게 메시지 (Enter로 전송, Shift+Enter로 줄바꿈)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>중지</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>보내기</translation>
    </message>
    <message>
        <source>Attach images (PNG, JPEG, WebP, GIF or BMP) or documents (text, Markdown, code, CSV, HTML, PDF or DOCX); you can also paste or drop them here</source>
        <translation>이미지(PNG, JPEG, WebP, GIF, BMP)나 문서(텍스트, Markdown, 코드, CSV, HTML, PDF, DOCX)를 첨부합니다. 여기에 붙여넣거나 끌어다 놓을 수도 있습니다</translation>
    </message>
    <message>
        <source>Tool choice:</source>
        <translation>도구 선택:</translation>
    </message>
    <message>
        <source>For this message: Auto lets the model decide; None offers no tools; Any tool or a named tool makes the model call one first. Back to Auto after sending.</source>
        <translation>이 메시지에만 적용됩니다. 자동은 모델이 결정하고, 사용 안 함은 도구를 제공하지 않으며, 아무 도구 또는 지정한 도구는 모델이 먼저 도구를 호출하게 합니다. 보낸 뒤에는 자동으로 돌아갑니다.</translation>
    </message>
</context>
<context>
    <name>Configuration</name>
    <message>
        <source>off</source>
        <extracomment>a speedup inside [SLOWER, FASTER] is &quot;about the same&quot;; below SLOWER the strip warns</extracomment>
        <translation>끔</translation>
    </message>
    <message>
        <source>{n}/round</source>
        <translation>{n}/라운드</translation>
    </message>
</context>
<context>
    <name>ConversationsModel</name>
    <message>
        <source>Writing an answer…</source>
        <extracomment>the last search&apos;s hits: conversation id -&gt; the text around its first hit the conversations whose answer is being written (a pencil, and a line in the tooltip)</extracomment>
        <translation>답변을 작성하는 중…</translation>
    </message>
</context>
<context>
    <name>ConversationsPanel</name>
    <message>
        <source>New chat</source>
        <extracomment>a search runs this long after the last keystroke (one query per pause, not per key)</extracomment>
        <translation>새 대화</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>이름 바꾸기</translation>
    </message>
    <message>
        <source>Export conversation</source>
        <translation>대화 내보내기</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>대화 삭제</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>대화 검색</translation>
    </message>
    <message>
        <source>Shows the conversations whose title or messages hold this text</source>
        <translation>제목이나 메시지에 이 텍스트가 들어 있는 대화만 표시합니다</translation>
    </message>
    <message>
        <source>No conversation holds this text.</source>
        <translation>이 텍스트가 들어 있는 대화가 없습니다.</translation>
    </message>
    <message>
        <source>Markdown with images (*.md)</source>
        <translation>Markdown 및 이미지 (*.md)</translation>
    </message>
    <message>
        <source>Web page (*.html)</source>
        <translation>웹 페이지 (*.html)</translation>
    </message>
    <message>
        <source>JSON, OpenAI messages with speculation figures (*.json)</source>
        <translation>JSON, 추측 디코딩 수치가 포함된 OpenAI 메시지 형식 (*.json)</translation>
    </message>
    <message>
        <source>The conversation could not be exported: {error}</source>
        <translation>대화를 내보낼 수 없습니다: {error}</translation>
    </message>
</context>
<context>
    <name>DeleteDialog</name>
    <message>
        <source>Also deletes the model and drafter files from the {hub} cache, unless another Tandem model still uses them. Other tools that share this cache (the hf command, Python scripts, other apps) lose these files and must download them again.</source>
        <extracomment>the model is the one loaded now: it is unloaded before its files go</extracomment>
        <translation>{hub} 캐시에서 모델과 드래프트 파일도 삭제합니다(다른 Tandem 모델이 아직 사용하는 파일은 제외). 이 캐시를 공유하는 다른 도구(hf 명령, Python 스크립트, 다른 앱)는 이 파일을 잃게 되어 다시 다운로드해야 합니다.</translation>
    </message>
    <message>
        <source>Delete files</source>
        <translation>파일 삭제</translation>
    </message>
    <message>
        <source>Remove from Tandem</source>
        <translation>Tandem에서 제거</translation>
    </message>
    <message>
        <source>Delete model</source>
        <translation>모델 삭제</translation>
    </message>
    <message>
        <source>Remove {model} from Tandem?</source>
        <translation>Tandem에서 {model}을(를) 제거할까요?</translation>
    </message>
    <message>
        <source>Tandem&apos;s entry for this model and its drafter is removed. The downloaded files stay in the {hub} cache, where other tools can still use them.</source>
        <translation>이 모델과 드래프트에 대한 Tandem 항목이 제거됩니다. 다운로드한 파일은 {hub} 캐시에 남아 다른 도구에서 계속 사용할 수 있습니다.</translation>
    </message>
    <message>
        <source>Tandem found this model in the {hub} cache (another tool downloaded it) and has no entry of its own to remove. Choose “Also free disk space” to delete the files.</source>
        <translation>Tandem이 {hub} 캐시에서 이 모델을 찾았습니다(다른 도구가 다운로드함). 제거할 Tandem 자체 항목은 없습니다. 파일을 삭제하려면 “디스크 공간도 확보”를 선택하세요.</translation>
    </message>
    <message>
        <source>The files take {size}.</source>
        <translation>파일 크기는 {size}입니다.</translation>
    </message>
    <message>
        <source>It is the loaded model: Tandem unloads it first.</source>
        <translation>현재 로드된 모델입니다. Tandem이 먼저 언로드합니다.</translation>
    </message>
    <message>
        <source>Also free disk space</source>
        <translation>디스크 공간도 확보</translation>
    </message>
</context>
<context>
    <name>DepthField</name>
    <message>
        <source>Enter a whole number greater than zero, or leave it empty.</source>
        <translation>0보다 큰 정수를 입력하거나 비워 두세요.</translation>
    </message>
</context>
<context>
    <name>DocumentChip</name>
    <message>
        <source>Reading…</source>
        <translation>읽는 중…</translation>
    </message>
    <message>
        <source>Reading {file}…</source>
        <translation>{file} 읽는 중…</translation>
    </message>
    <message>
        <source>Open {file}</source>
        <translation>{file} 열기</translation>
    </message>
    <message>
        <source>Remove this document</source>
        <translation>이 문서 제거</translation>
    </message>
</context>
<context>
    <name>Documents</name>
    <message>
        <source>{n} bytes</source>
        <extracomment>the most documents one message carries a document longer than this (estimated tokens) gets its passage index built when it is read, off the GUI thread, so the question that needs it does not wait for it the suffixes the file dialog&apos;s &quot;Documents&quot; filter shows (any other file can still be chosen under &quot;All files&quot;: its bytes decide what it is) a chip&apos;s width range (pixels): long names are elided inside it the characters of a passage&apos;s first line shown in the sources list</extracomment>
        <translation>{n}바이트</translation>
    </message>
    <message>
        <source>1 page</source>
        <translation>1쪽</translation>
    </message>
    <message>
        <source>{n} pages</source>
        <translation>{n}쪽</translation>
    </message>
    <message>
        <source>the file is larger than Tandem reads ({limit} MB, or too much text); attach a smaller file, or split it</source>
        <translation>파일이 Tandem이 읽을 수 있는 크기({limit} MB 또는 텍스트 양)를 넘습니다. 더 작은 파일을 첨부하거나 나누세요</translation>
    </message>
    <message>
        <source>the file has no text in it</source>
        <translation>파일에 텍스트가 없습니다</translation>
    </message>
    <message>
        <source>this is a binary file, not text; attach a text, PDF or DOCX file</source>
        <translation>텍스트가 아닌 바이너리 파일입니다. 텍스트, PDF 또는 DOCX 파일을 첨부하세요</translation>
    </message>
    <message>
        <source>the text is in an encoding Tandem does not read; save it as UTF-8 and attach it again</source>
        <translation>텍스트 인코딩을 Tandem이 읽을 수 없습니다. UTF-8로 저장한 뒤 다시 첨부하세요</translation>
    </message>
    <message>
        <source>the PDF is protected by a password; remove the protection and attach it again</source>
        <translation>이 PDF는 암호로 보호되어 있습니다. 보호를 해제한 뒤 다시 첨부하세요</translation>
    </message>
    <message>
        <source>the file is damaged and cannot be read; save it again (print a PDF to a new PDF) and attach that</source>
        <translation>파일이 손상되어 읽을 수 없습니다. 다시 저장해(PDF는 새 PDF로 인쇄해) 첨부하세요</translation>
    </message>
    <message>
        <source>the PDF has no text layer (a scanned document?); Tandem does not read text in images (no OCR): attach a PDF with text, or the text itself</source>
        <translation>이 PDF에는 텍스트 레이어가 없습니다(스캔한 문서?). Tandem은 이미지 속 글자를 읽지 않습니다(OCR 없음). 텍스트가 있는 PDF나 텍스트 자체를 첨부하세요</translation>
    </message>
    <message>
        <source>the file cannot be read; check that it exists and can be opened</source>
        <translation>파일을 읽을 수 없습니다. 파일이 있고 열 수 있는지 확인하세요</translation>
    </message>
    <message>
        <source>Tandem does not read this kind of file; save it as DOCX, PDF or plain text and attach that</source>
        <translation>Tandem은 이 종류의 파일을 읽지 않습니다. DOCX, PDF 또는 일반 텍스트로 저장해 첨부하세요</translation>
    </message>
    <message>
        <source>the document cannot be saved; free some disk space and send again</source>
        <translation>문서를 저장할 수 없습니다. 디스크 공간을 확보한 뒤 다시 보내세요</translation>
    </message>
    <message>
        <source>the document is too large to index in the memory left; close other programs or unload a model, or attach a shorter part of it</source>
        <translation>남은 메모리로는 문서가 너무 커서 색인을 만들 수 없습니다. 다른 프로그램을 닫거나 모델을 내리거나, 문서의 짧은 일부를 첨부하세요</translation>
    </message>
    <message>
        <source>a document of this conversation is no longer stored; edit the message</source>
        <translation>이 대화의 문서 하나가 더 이상 저장되어 있지 않습니다. 메시지를 편집하세요</translation>
    </message>
    <message>
        <source>The documents leave no room in the model&apos;s context: start a new conversation, or load the model with a larger context.</source>
        <translation>문서를 넣으면 모델의 컨텍스트에 여유가 없습니다. 새 대화를 시작하거나 더 큰 컨텍스트 길이로 모델을 불러오세요.</translation>
    </message>
    <message>
        <source>{file} · whole document</source>
        <translation>{file} · 문서 전체</translation>
    </message>
    <message>
        <source>{file} · page {page}</source>
        <translation>{file} · {page}쪽</translation>
    </message>
</context>
<context>
    <name>DownloadsModel</name>
    <message>
        <source>Queued</source>
        <translation>대기 중</translation>
    </message>
    <message>
        <source>Downloading</source>
        <translation>다운로드 중</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>완료</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>취소됨</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>State</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>진행률</translation>
    </message>
    <message>
        <source>Rate</source>
        <translation>속도</translation>
    </message>
    <message>
        <source>Time left</source>
        <translation>남은 시간</translation>
    </message>
</context>
<context>
    <name>DownloadsPage</name>
    <message>
        <source>Downloads</source>
        <translation>다운로드</translation>
    </message>
    <message>
        <source>No downloads yet. Pick a model on the Models page and press Download.</source>
        <translation>아직 다운로드가 없습니다. &apos;모델&apos; 페이지에서 모델을 고른 뒤 &apos;다운로드&apos;를 누르세요.</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>다시 시도</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>폴더 열기</translation>
    </message>
</context>
<context>
    <name>EngineHints</name>
    <message>
        <source>Check the server in Settings → Tools; the conversation is kept as it was.</source>
        <translation>설정 → 도구에서 서버를 확인하세요. 대화는 그대로 유지됩니다.</translation>
    </message>
    <message>
        <source>Fix the field named above, then try again; nothing was changed.</source>
        <translation>위에 표시된 항목을 고친 뒤 다시 시도하세요. 아무것도 바뀌지 않았습니다.</translation>
    </message>
    <message>
        <source>Check the server&apos;s command (or address) and its settings in Settings → Tools, then start it again.</source>
        <translation>설정 → 도구에서 서버의 명령(또는 주소)과 설정을 확인한 뒤 다시 시작하세요.</translation>
    </message>
    <message>
        <source>Start the server in Settings → Tools, then send the message again.</source>
        <translation>설정 → 도구에서 서버를 시작한 뒤 메시지를 다시 보내세요.</translation>
    </message>
    <message>
        <source>The server may be busy or stuck: try again, or raise its time limit in Settings → Tools.</source>
        <translation>서버가 바쁘거나 멈췄을 수 있습니다. 다시 시도하거나 설정 → 도구에서 제한 시간을 늘리세요.</translation>
    </message>
    <message>
        <source>Start the server again in Settings → Tools; its log may say why it stopped.</source>
        <translation>설정 → 도구에서 서버를 다시 시작하세요. 멈춘 이유는 서버 로그에 있을 수 있습니다.</translation>
    </message>
    <message>
        <source>The tool reported the error above; change the request or the tool&apos;s settings and try again.</source>
        <translation>도구가 위 오류를 보고했습니다. 요청이나 도구 설정을 바꾼 뒤 다시 시도하세요.</translation>
    </message>
    <message>
        <source>Choose a tool that a running server offers, or let the model choose (tool choice auto).</source>
        <translation>실행 중인 서버가 제공하는 도구를 고르거나, 모델이 고르게 하세요(도구 선택 auto).</translation>
    </message>
    <message>
        <source>Ask for the configuration that runs (or &quot;auto&quot;), or free memory and try again.</source>
        <translation>실행 중인 구성(또는 &quot;auto&quot;)을 요청하거나, 메모리를 확보한 뒤 다시 시도하세요.</translation>
    </message>
    <message>
        <source>Attach the picture again: its file changed or went away after it was attached.</source>
        <translation>그림을 다시 첨부하세요. 첨부한 뒤 파일이 바뀌었거나 사라졌습니다.</translation>
    </message>
    <message>
        <source>Change the request; the model stays loaded.</source>
        <translation>요청을 고치세요. 모델은 계속 불러온 상태입니다.</translation>
    </message>
    <message>
        <source>Check that the file is a complete model download; delete and download it again if not.</source>
        <translation>파일이 완전히 다운로드된 모델인지 확인하세요. 아니라면 삭제한 뒤 다시 다운로드하세요.</translation>
    </message>
    <message>
        <source>Check that the file is a complete model llama.cpp supports, or pick another file.</source>
        <translation>파일이 llama.cpp가 지원하는 완전한 모델인지 확인하거나 다른 파일을 선택하세요.</translation>
    </message>
    <message>
        <source>Check that the server is running and the endpoint URL is right.</source>
        <translation>서버가 실행 중인지, 엔드포인트 URL이 올바른지 확인하세요.</translation>
    </message>
    <message>
        <source>Check the path: most servers answer under /v1, e.g. http://host:8000/v1</source>
        <translation>경로를 확인하세요. 대부분의 서버는 /v1 아래에서 응답합니다(예: http://host:8000/v1)</translation>
    </message>
    <message>
        <source>Choose the drafter declared for this model, or turn speculative decoding off.</source>
        <translation>이 모델에 선언된 드래프터를 선택하거나 추측 디코딩을 끄세요.</translation>
    </message>
    <message>
        <source>Connect again.</source>
        <translation>다시 연결하세요.</translation>
    </message>
    <message>
        <source>Download it again or pick another file.</source>
        <translation>다시 다운로드하거나 다른 파일을 선택하세요.</translation>
    </message>
    <message>
        <source>Download the drafter declared for this model, or turn speculative decoding off.</source>
        <translation>이 모델에 선언된 드래프터를 다운로드하거나 추측 디코딩을 끄세요.</translation>
    </message>
    <message>
        <source>Fix the speculative decoding settings and load again.</source>
        <translation>추측 디코딩 설정을 고친 뒤 다시 불러오세요.</translation>
    </message>
    <message>
        <source>Give the server&apos;s OpenAI API address, e.g. https://gpu-box.example:8000/v1</source>
        <translation>서버의 OpenAI API 주소를 입력하세요(예: https://gpu-box.example:8000/v1)</translation>
    </message>
    <message>
        <source>Install the engine&apos;s extra (see the README) or choose another engine.</source>
        <translation>엔진의 추가 패키지를 설치하거나(README 참고) 다른 엔진을 선택하세요.</translation>
    </message>
    <message>
        <source>Load a model first.</source>
        <translation>먼저 모델을 불러오세요.</translation>
    </message>
    <message>
        <source>Load a model that reads images (a vision model), or remove the images.</source>
        <translation>이미지를 읽을 수 있는 모델(비전 모델)을 로드하거나 이미지를 제거하세요.</translation>
    </message>
    <message>
        <source>Load the model again.</source>
        <translation>모델을 다시 불러오세요.</translation>
    </message>
    <message>
        <source>Pick one of the models the server lists (tandem remote-models --endpoint URL).</source>
        <translation>서버가 나열하는 모델 중 하나를 선택하세요(tandem remote-models --endpoint URL).</translation>
    </message>
    <message>
        <source>See the server&apos;s log for details.</source>
        <translation>자세한 내용은 서버 로그를 확인하세요.</translation>
    </message>
    <message>
        <source>Set the key in TANDEM_API_KEY or store it for this endpoint (tandem endpoint-key).</source>
        <translation>TANDEM_API_KEY에 키를 설정하거나 이 엔드포인트용으로 저장하세요(tandem endpoint-key).</translation>
    </message>
    <message>
        <source>Set the repeat penalty to 1 (off), or turn speculative decoding off.</source>
        <translation>반복 페널티를 1(끔)로 설정하거나 추측 디코딩을 끄세요.</translation>
    </message>
    <message>
        <source>Set the temperature to 0, or turn speculative decoding off to sample.</source>
        <translation>온도를 0으로 설정하거나, 샘플링하려면 추측 디코딩을 끄세요.</translation>
    </message>
    <message>
        <source>Choose one of those, or load the model again with that speculation.</source>
        <translation>그중 하나를 고르거나, 그 추측 방식으로 모델을 다시 로드하세요.</translation>
    </message>
    <message>
        <source>Shorten the conversation or the message, or load the model with a larger context.</source>
        <translation>대화나 메시지를 줄이거나 더 큰 컨텍스트로 모델을 불러오세요.</translation>
    </message>
    <message>
        <source>Shorten the message, lower Max new tokens, or load the model with a larger context length.</source>
        <translation>메시지를 줄이거나 최대 새 토큰 수를 낮추거나 더 긴 컨텍스트 길이로 모델을 불러오세요.</translation>
    </message>
    <message>
        <source>Start the server, or check the host name and port of the endpoint.</source>
        <translation>서버를 시작하거나 엔드포인트의 호스트 이름과 포트를 확인하세요.</translation>
    </message>
    <message>
        <source>The model stays loaded; try again, or reload it if the error repeats.</source>
        <translation>모델은 계속 불러온 상태입니다. 다시 시도하고, 오류가 반복되면 다시 불러오세요.</translation>
    </message>
    <message>
        <source>The partial answer is kept. Check the server (it may have stopped) and try again.</source>
        <translation>부분 답변은 보존됩니다. 서버(멈췄을 수 있음)를 확인한 뒤 다시 시도하세요.</translation>
    </message>
    <message>
        <source>The server is slow or overloaded; try again, or raise the timeout.</source>
        <translation>서버가 느리거나 과부하 상태입니다. 다시 시도하거나 시간 제한을 늘리세요.</translation>
    </message>
    <message>
        <source>The server&apos;s HTTPS certificate is not trusted here. Use a certificate from a trusted authority, or add your own CA to the system&apos;s trust store.</source>
        <translation>이 서버의 HTTPS 인증서는 여기서 신뢰되지 않습니다. 신뢰할 수 있는 기관의 인증서를 사용하거나 자체 CA를 시스템 신뢰 저장소에 추가하세요.</translation>
    </message>
    <message>
        <source>Turn speculative decoding off for this model.</source>
        <translation>이 모델에서는 추측 디코딩을 끄세요.</translation>
    </message>
    <message>
        <source>Use https:// for servers on other machines, or allow plain HTTP for this endpoint (--allow-http) if it is on a network you trust.</source>
        <translation>다른 컴퓨터의 서버에는 https://를 사용하세요. 신뢰하는 네트워크에 있다면 이 엔드포인트에 일반 HTTP를 허용할 수 있습니다(--allow-http).</translation>
    </message>
    <message>
        <source>Use suffix or prompt-lookup on MLX, choose a drafter model, run the model on llama.cpp, or turn speculative decoding off.</source>
        <translation>MLX에서 suffix나 prompt-lookup을 사용하거나, 드래프터 모델을 선택하거나, llama.cpp로 모델을 실행하거나, 추측 디코딩을 끄세요.</translation>
    </message>
    <message>
        <source>Use the drafter declared for this model (e.g. a Gemma 4 assistant), or turn speculative decoding off.</source>
        <translation>이 모델에 선언된 드래프터(예: Gemma 4 assistant)를 사용하거나 추측 디코딩을 끄세요.</translation>
    </message>
    <message>
        <source>Use the method &apos;draft&apos; for a classic same-vocabulary drafter, or pick the model&apos;s own drafter.</source>
        <translation>어휘가 같은 일반 드래프터에는 방식 &apos;draft&apos;를 사용하거나 모델 전용 드래프터를 선택하세요.</translation>
    </message>
</context>
<context>
    <name>EngineLoader</name>
    <message>
        <source>Locating model files</source>
        <extracomment>The one name the stats strip and the status bar give an Auto launch.</extracomment>
        <translation>모델 파일을 찾는 중</translation>
    </message>
    <message>
        <source>Connecting to {url}</source>
        <translation>{url}에 연결하는 중</translation>
    </message>
</context>
<context>
    <name>ErrorBanner</name>
    <message>
        <source>Details</source>
        <translation>자세히</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>닫기</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>Something went wrong</source>
        <translation>문제가 발생했습니다</translation>
    </message>
    <message>
        <source>Correct the speculative decoding settings and try again.</source>
        <translation>추측 디코딩 설정을 고친 뒤 다시 시도하세요.</translation>
    </message>
    <message>
        <source>Install the package named above, then restart Tandem.</source>
        <extracomment>The exception&apos;s own ``hint`` attribute (engine errors): the class that raises knows the cause. (exception type, error code or None for any, hint). Codes: ``CacheError.code`` (HubError: network / auth / not_found) and, for ``OSError``, the errno name (ENOSPC, EACCES...).</extracomment>
        <translation>위에 나온 패키지를 설치한 뒤 Tandem을 다시 시작하세요.</translation>
    </message>
    <message>
        <source>Download the model first (Models page, or the command above), then try again.</source>
        <translation>먼저 모델을 다운로드하세요(&apos;모델&apos; 페이지 또는 위의 명령). 그런 다음 다시 시도하세요.</translation>
    </message>
    <message>
        <source>Free some disk space or choose a smaller quantization, then retry.</source>
        <translation>디스크 공간을 확보하거나 더 작은 양자화를 선택한 뒤 다시 시도하세요.</translation>
    </message>
    <message>
        <source>Check the network connection and the hub endpoint in Settings, then press Retry.</source>
        <translation>네트워크 연결과 &apos;설정&apos;의 허브 엔드포인트를 확인한 뒤 &apos;다시 시도&apos;를 누르세요.</translation>
    </message>
    <message>
        <source>The hub refused access: check the repository id, or store a token for this hub in Settings if the repository is private or gated.</source>
        <translation>허브가 접근을 거부했습니다. 저장소 ID를 확인하거나, 저장소가 비공개 또는 접근 제한 저장소라면 &apos;설정&apos;에서 이 허브의 토큰을 저장하세요.</translation>
    </message>
    <message>
        <source>The hub has no such repository or file (or it is private): check the model entry&apos;s repository and file names, or store a token for this hub in Settings.</source>
        <translation>허브에 해당 저장소나 파일이 없습니다(또는 비공개입니다). 모델 항목의 저장소와 파일 이름을 확인하거나 &apos;설정&apos;에서 이 허브의 토큰을 저장하세요.</translation>
    </message>
    <message>
        <source>Check the network and the hub settings, then press Retry.</source>
        <translation>네트워크와 허브 설정을 확인한 뒤 &apos;다시 시도&apos;를 누르세요.</translation>
    </message>
    <message>
        <source>The damaged file was removed; press Retry to download it again.</source>
        <translation>손상된 파일을 삭제했습니다. &apos;다시 시도&apos;를 눌러 다시 다운로드하세요.</translation>
    </message>
    <message>
        <source>Press Retry to start the download again.</source>
        <translation>&apos;다시 시도&apos;를 누르면 다운로드를 다시 시작합니다.</translation>
    </message>
    <message>
        <source>The repository has no file for this quantization; the message names the ones it holds. Choose one of those, or press Refresh from hub on the Models page to list them.</source>
        <translation>저장소에 이 양자화의 파일이 없습니다. 메시지에 저장소에 있는 양자화가 나와 있습니다. 그중 하나를 고르거나, 모델 페이지에서 &apos;허브에서 새로 고침&apos;을 눌러 목록을 가져오세요.</translation>
    </message>
    <message>
        <source>Check the model entry; the message names the field to fix.</source>
        <translation>모델 항목을 확인하세요. 메시지에 고쳐야 할 필드가 나와 있습니다.</translation>
    </message>
    <message>
        <source>Check the model cache in Settings, then retry.</source>
        <translation>&apos;설정&apos;의 모델 캐시를 확인한 뒤 다시 시도하세요.</translation>
    </message>
    <message>
        <source>Choose a complete .gguf file (a download that stopped early is incomplete: download it again) or an MLX model folder with its config.json and weights. Nothing was added.</source>
        <translation>완전한 .gguf 파일(중간에 멈춘 다운로드는 불완전합니다. 다시 다운로드하세요)이나 config.json과 가중치가 있는 MLX 모델 폴더를 선택하세요. 아무것도 추가되지 않았습니다.</translation>
    </message>
    <message>
        <source>Correct the sampling settings (temperature, top-p, top-k, max new tokens) and try again.</source>
        <translation>샘플링 설정(온도, top-p, top-k, 최대 새 토큰 수)을 수정한 뒤 다시 시도하세요.</translation>
    </message>
    <message>
        <source>Choose another engine or model in the launch dialog.</source>
        <translation>실행 대화 상자에서 다른 엔진이나 모델을 선택하세요.</translation>
    </message>
    <message>
        <source>The file is not a complete GGUF model: delete it and download it again.</source>
        <translation>이 파일은 완전한 GGUF 모델이 아닙니다. 삭제한 뒤 다시 다운로드하세요.</translation>
    </message>
    <message>
        <source>Use https:// for a server on another machine, or tick Allow plain HTTP for this endpoint if it is on a network you trust.</source>
        <translation>다른 컴퓨터의 서버에는 https://를 사용하세요. 신뢰하는 네트워크에 있다면 이 엔드포인트에 &apos;일반 HTTP 허용&apos;을 선택하세요.</translation>
    </message>
    <message>
        <source>Enter the server&apos;s OpenAI API address, e.g. https://gpu-box.example:8000/v1.</source>
        <translation>서버의 OpenAI API 주소를 입력하세요(예: https://gpu-box.example:8000/v1).</translation>
    </message>
    <message>
        <source>Start the server, or check the host name and port of the endpoint.</source>
        <translation>서버를 시작하거나 엔드포인트의 호스트 이름과 포트를 확인하세요.</translation>
    </message>
    <message>
        <source>The server&apos;s HTTPS certificate is not trusted here: use one from a trusted authority, or add your own CA to the system&apos;s trust store.</source>
        <translation>이 서버의 HTTPS 인증서를 여기서는 신뢰하지 않습니다. 신뢰할 수 있는 기관의 인증서를 사용하거나 자체 CA를 시스템 신뢰 저장소에 추가하세요.</translation>
    </message>
    <message>
        <source>Enter the server&apos;s API key on the launch dialog&apos;s Remote server tab; Tandem keeps it in the system keyring.</source>
        <translation>실행 대화 상자의 &apos;원격 서버&apos; 탭에서 서버의 API 키를 입력하세요. Tandem은 이를 시스템 키링에 보관합니다.</translation>
    </message>
    <message>
        <source>Press List models on the Remote server tab and pick a model the server serves.</source>
        <translation>&apos;원격 서버&apos; 탭에서 &apos;모델 목록&apos;을 누르고 서버가 제공하는 모델을 선택하세요.</translation>
    </message>
    <message>
        <source>The server is slow or overloaded; try again.</source>
        <translation>서버가 느리거나 과부하 상태입니다. 다시 시도하세요.</translation>
    </message>
    <message>
        <source>The partial answer is kept. Check the server (it may have stopped), then ask again.</source>
        <translation>부분 답변은 보관되었습니다. 서버를 확인한 뒤(중지되었을 수 있음) 다시 질문하세요.</translation>
    </message>
    <message>
        <source>See the server&apos;s log for details.</source>
        <translation>자세한 내용은 서버 로그를 확인하세요.</translation>
    </message>
    <message>
        <source>Tandem may not write there: check the folder&apos;s permissions.</source>
        <translation>Tandem이 그곳에 쓸 수 없습니다. 폴더 권한을 확인하세요.</translation>
    </message>
    <message>
        <source>A file Tandem needs is missing; the message names it.</source>
        <translation>Tandem에 필요한 파일이 없습니다. 메시지에 파일 이름이 나와 있습니다.</translation>
    </message>
    <message>
        <source>Check free disk space and permissions, then retry.</source>
        <translation>디스크 여유 공간과 권한을 확인한 뒤 다시 시도하세요.</translation>
    </message>
    <message>
        <source>Check the engine and model chosen in the launch dialog, then try again.</source>
        <translation>실행 대화 상자에서 선택한 엔진과 모델을 확인한 뒤 다시 시도하세요.</translation>
    </message>
    <message>
        <source>Unexpected error</source>
        <translation>예기치 않은 오류</translation>
    </message>
    <message>
        <source>Tandem keeps running. If this repeats, report it with the details below.</source>
        <translation>Tandem은 계속 실행 중입니다. 문제가 반복되면 아래 자세한 내용과 함께 알려 주세요.</translation>
    </message>
</context>
<context>
    <name>FitLabel</name>
    <message>
        <source>Checking…</source>
        <translation>확인하는 중…</translation>
    </message>
    <message>
        <source>Memory use unknown: {reason}</source>
        <translation>메모리 사용량을 알 수 없음: {reason}</translation>
    </message>
    <message>
        <source>Fits in memory ({total:.1f} of {avail:.1f} GiB available)</source>
        <translation>메모리에 들어갑니다(사용 가능 {avail:.1f} GiB 중 {total:.1f} GiB)</translation>
    </message>
    <message>
        <source>Tight: needs {total:.1f} of {avail:.1f} GiB available</source>
        <translation>빠듯함: 사용 가능 {avail:.1f} GiB 중 {total:.1f} GiB 필요</translation>
    </message>
    <message>
        <source>Too large: needs {total:.1f} GiB, {avail:.1f} GiB available</source>
        <translation>너무 큼: {total:.1f} GiB 필요, 사용 가능 {avail:.1f} GiB</translation>
    </message>
    <message>
        <source>Memory use unknown for this quantization</source>
        <translation>이 양자화의 메모리 사용량을 알 수 없습니다</translation>
    </message>
    <message>
        <source>The KV cache is counted once the file is downloaded (its header gives it).</source>
        <translation>KV 캐시는 파일을 다운로드한 뒤 계산됩니다(헤더에서 구합니다).</translation>
    </message>
</context>
<context>
    <name>HubSearchPanel</name>
    <message>
        <source>Search {hub} (press Enter)</source>
        <translation>{hub} 검색(Enter 키)</translation>
    </message>
    <message>
        <source>Search models</source>
        <translation>모델 검색</translation>
    </message>
    <message>
        <source>Type what to look for, then press Enter.</source>
        <translation>찾을 내용을 입력한 뒤 Enter 키를 누르세요.</translation>
    </message>
    <message>
        <source>Searching {hub}…</source>
        <translation>{hub} 검색 중…</translation>
    </message>
    <message>
        <source>Search cancelled.</source>
        <translation>검색을 취소했습니다.</translation>
    </message>
    <message>
        <source>No models match this search.</source>
        <translation>이 검색과 일치하는 모델이 없습니다.</translation>
    </message>
    <message>
        <source>{count} results; choose one to see its files.</source>
        <translation>결과 {count}개. 하나를 선택하면 파일을 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Search needs the network; your registry still works.</source>
        <translation>검색하려면 네트워크가 필요합니다. 등록된 모델은 계속 사용할 수 있습니다.</translation>
    </message>
    <message>
        <source>Listing the files of {repo}…</source>
        <translation>{repo}의 파일 목록을 가져오는 중…</translation>
    </message>
    <message>
        <source>Other GGUF files</source>
        <translation>기타 GGUF 파일</translation>
    </message>
    <message>
        <source>{n} parts: {names}</source>
        <translation>{n}개 분할: {names}</translation>
    </message>
    <message>
        <source>{repo}: {n} files. Add it to your models to download and launch it.</source>
        <translation>{repo}: 파일 {n}개. 내 모델에 추가하면 다운로드하고 실행할 수 있습니다.</translation>
    </message>
    <message>
        <source>Could not add it: {reason}</source>
        <translation>추가할 수 없습니다: {reason}</translation>
    </message>
    <message>
        <source>Added {name} to your models.</source>
        <translation>{name}을(를) 내 모델에 추가했습니다.</translation>
    </message>
    <message>
        <source>Catalog</source>
        <translation>카탈로그</translation>
    </message>
    <message>
        <source>My models</source>
        <translation>내 모델</translation>
    </message>
    <message>
        <source>Where the search field looks: the catalog, the models on this computer, or a hub</source>
        <translation>검색 창이 찾는 곳: 카탈로그, 이 컴퓨터에 있는 모델, 또는 허브</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation>다운로드 수</translation>
    </message>
    <message>
        <source>Likes</source>
        <translation>좋아요</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>업데이트</translation>
    </message>
    <message>
        <source>Formats</source>
        <translation>형식</translation>
    </message>
    <message>
        <source>Quantization / file</source>
        <translation>양자화 / 파일</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>크기</translation>
    </message>
    <message>
        <source>More results</source>
        <translation>결과 더 보기</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Add to my models</source>
        <translation>내 모델에 추가</translation>
    </message>
    <message>
        <source>Import model…</source>
        <translation>모델 가져오기…</translation>
    </message>
    <message>
        <source>Add a .gguf file or an MLX folder from this computer (or drop it on the window)</source>
        <translation>이 컴퓨터의 .gguf 파일이나 MLX 폴더를 추가합니다(창에 끌어다 놓아도 됩니다)</translation>
    </message>
</context>
<context>
    <name>ImageViewer</name>
    <message>
        <source>Image</source>
        <translation>이미지</translation>
    </message>
    <message>
        <source>{w} × {h} pixels, {kb} KB</source>
        <translation>{w} × {h} 픽셀, {kb} KB</translation>
    </message>
</context>
<context>
    <name>ImportController</name>
    <message>
        <source>Import model</source>
        <translation>모델 가져오기</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF 모델 (*.gguf)</translation>
    </message>
    <message>
        <source>Models (*.gguf config.json)</source>
        <translation>모델 (*.gguf config.json)</translation>
    </message>
    <message>
        <source>MLX model folder: its config.json (config.json)</source>
        <translation>MLX 모델 폴더: 그 안의 config.json 선택 (config.json)</translation>
    </message>
    <message>
        <source>Could not import the model</source>
        <translation>모델을 가져올 수 없습니다</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <source>Import model</source>
        <translation>모델 가져오기</translation>
    </message>
    <message>
        <source>Compatible drafters (same vocabulary, smaller):</source>
        <translation>호환되는 드래프터(같은 어휘, 더 작은 모델):</translation>
    </message>
    <message>
        <source>Use as drafter</source>
        <translation>드래프터로 사용</translation>
    </message>
    <message>
        <source>Launch…</source>
        <translation>실행…</translation>
    </message>
    <message>
        <source>Registered {name} ({fmt}, {quant}) from {path}.</source>
        <translation>{path}에서 {name}({fmt}, {quant})을(를) 등록했습니다.</translation>
    </message>
    <message>
        <source>{name} is already in your models ({fmt}, {quant}, {path}).</source>
        <translation>{name}은(는) 이미 내 모델에 있습니다({fmt}, {quant}, {path}).</translation>
    </message>
    <message>
        <source>Looking for compatible drafters…</source>
        <translation>호환되는 드래프터를 찾는 중…</translation>
    </message>
    <message>
        <source>The drafter search failed: {reason}</source>
        <translation>드래프터 검색에 실패했습니다: {reason}</translation>
    </message>
    <message>
        <source>Choose a drafter to pair with it, or launch it alone.</source>
        <translation>함께 쓸 드래프터를 고르거나 단독으로 실행하세요.</translation>
    </message>
    <message>
        <source>No compatible drafter found nearby; it can still run alone or with a model-free method.</source>
        <translation>근처에서 호환되는 드래프터를 찾지 못했습니다. 단독으로 또는 모델 없는 방식으로 실행할 수 있습니다.</translation>
    </message>
    <message>
        <source>Not offered:</source>
        <translation>제외됨:</translation>
    </message>
    <message>
        <source>{drafter} is now its drafter.</source>
        <translation>이제 {drafter}이(가) 드래프터입니다.</translation>
    </message>
</context>
<context>
    <name>LaunchCoordinator</name>
    <message>
        <source>The model could not be loaded</source>
        <extracomment>the choice of the last load started (the Auto notice reloads it)</extracomment>
        <translation>모델을 불러오지 못했습니다</translation>
    </message>
    <message>
        <source>Downloading; the model loads when the download finishes.</source>
        <translation>다운로드 중입니다. 다운로드가 끝나면 모델을 불러옵니다.</translation>
    </message>
    <message>
        <source>The download could not be queued</source>
        <translation>다운로드를 대기열에 추가하지 못했습니다</translation>
    </message>
    <message>
        <source>Speculation is off for this model now.</source>
        <translation>이 모델의 추측 디코딩을 껐습니다.</translation>
    </message>
    <message>
        <source>The default model is not available</source>
        <translation>기본 모델을 사용할 수 없습니다</translation>
    </message>
    <message>
        <source>{model} could not be reopened: {reason}</source>
        <translation>{model}을(를) 다시 열지 못했습니다: {reason}</translation>
    </message>
    <message>
        <source>Your last model was not reopened</source>
        <translation>지난번 모델을 다시 열지 못했습니다</translation>
    </message>
    <message>
        <source>The default model is loaded instead. Download the model again from the Models page.</source>
        <translation>대신 기본 모델을 불러왔습니다. &apos;모델&apos; 페이지에서 모델을 다시 다운로드하세요.</translation>
    </message>
    <message>
        <source>the {engine} engine is not available ({reason})</source>
        <translation>{engine} 엔진을 사용할 수 없습니다 ({reason})</translation>
    </message>
    <message>
        <source>its files are no longer on disk</source>
        <translation>파일이 더 이상 디스크에 없습니다</translation>
    </message>
    <message>
        <source>its drafter&apos;s files are no longer on disk</source>
        <translation>드래프터 파일이 더 이상 디스크에 없습니다</translation>
    </message>
</context>
<context>
    <name>LaunchDialog</name>
    <message>
        <source>This engine is not available here: {reason}</source>
        <extracomment>Each note code&apos;s sentence, in the dialog&apos;s translation context (the sentences and their translations are the ones the dialog always had); parameters are filled in by ``_say``.</extracomment>
        <translation>이 엔진은 여기서 사용할 수 없습니다: {reason}</translation>
    </message>
    <message>
        <source>{quant} is not downloaded yet; launching queues its download first.</source>
        <translation>{quant}이(가) 아직 다운로드되지 않았습니다. 실행하면 먼저 다운로드를 대기열에 넣습니다.</translation>
    </message>
    <message>
        <source>Enable MTP</source>
        <translation>MTP 활성화</translation>
    </message>
    <message>
        <source>Use the drafter model</source>
        <translation>드래프트 모델 사용</translation>
    </message>
    <message>
        <source>The drafter ({quant}) is not downloaded yet. Launching queues its download, then loads the model with it.</source>
        <translation>드래프트 모델({quant})이 아직 다운로드되지 않았습니다. 실행하면 다운로드를 대기열에 넣고, 완료되면 모델과 함께 불러옵니다.</translation>
    </message>
    <message>
        <source>default</source>
        <translation>기본</translation>
    </message>
    <message>
        <source>This is a mixture-of-experts model: it computes only part of itself per token, so a drafter may cost more than it saves. Compare the tokens/s in the statistics strip with speculation on and off.</source>
        <translation>전문가 혼합 모델입니다. 토큰마다 모델의 일부만 계산하므로 드래프트 모델의 비용이 이득보다 클 수 있습니다. 추측을 켰을 때와 껐을 때 통계 표시줄의 초당 토큰 수를 비교해 보세요.</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>끔</translation>
    </message>
    <message>
        <source>Turn the drafter off to use a model-free method.</source>
        <translation>모델 없는 방식을 쓰려면 드래프트 모델을 끄세요.</translation>
    </message>
    <message>
        <source>engine default</source>
        <translation>엔진 기본값</translation>
    </message>
    <message>
        <source>{path}
Compatible: {reason}</source>
        <extracomment>the one state of the form: every widget change replaces it, every widget shows it</extracomment>
        <translation>{path}
호환: {reason}</translation>
    </message>
    <message>
        <source>Not offered:</source>
        <translation>제외됨:</translation>
    </message>
    <message>
        <source>Runs the drafter file chosen below beside the model: it proposes several tokens per round and the model verifies them in one pass, so the answer is identical. It was found on this computer with the same vocabulary; nothing is downloaded.</source>
        <translation>아래에서 선택한 드래프터 파일을 모델과 함께 실행합니다. 드래프터가 라운드마다 여러 토큰을 제안하고 모델이 한 번에 검증하므로 답변은 동일합니다. 이 컴퓨터에서 찾은 같은 어휘의 파일이며, 아무것도 다운로드하지 않습니다.</translation>
    </message>
    <message>
        <source>The drafter ({quant}) is not downloaded, so Auto measures without it. Download it from the Models page to let Auto try it.</source>
        <translation>드래프터({quant})가 다운로드되지 않아 Auto는 드래프터 없이 측정합니다. 모델 페이지에서 다운로드하면 Auto가 시도할 수 있습니다.</translation>
    </message>
    <message>
        <source>Looking for a compatible drafter on this computer…</source>
        <translation>이 컴퓨터에서 호환되는 드래프터를 찾는 중…</translation>
    </message>
    <message>
        <source>No compatible drafter found on this computer. Download a smaller model of the same family (same vocabulary) to draft for it, or use a model-free method.</source>
        <translation>이 컴퓨터에서 호환되는 드래프터를 찾지 못했습니다. 같은 계열의 더 작은 모델(같은 어휘)을 다운로드해 드래프터로 쓰거나, 모델 없는 방식을 사용하세요.</translation>
    </message>
    <message>
        <source>The drafter search failed: {detail}</source>
        <translation>드래프터 검색에 실패했습니다: {detail}</translation>
    </message>
    <message>
        <source>This model reads images with its projector (mmproj), which is not downloaded: this launch reads text only. Download the model again from the Models page to fetch it.</source>
        <translation>이 모델은 프로젝터(mmproj)로 이미지를 읽지만 아직 다운로드되지 않았습니다. 이번 실행은 텍스트만 읽습니다. 모델 페이지에서 모델을 다시 다운로드하면 받아옵니다.</translation>
    </message>
    <message>
        <source>{method} cannot run with pictures on this llama.cpp: this launch reads text only. Choose another speculation method to send pictures.</source>
        <translation>이 llama.cpp에서는 {method}을(를) 그림과 함께 실행할 수 없습니다. 이번 실행은 텍스트만 읽습니다. 그림을 보내려면 다른 추측 방식을 선택하세요.</translation>
    </message>
    <message>
        <source>Max new tokens ({max}) must be less than the context length ({ctx}): the conversation needs room in the context too.</source>
        <translation>최대 생성 토큰 수({max})는 컨텍스트 길이({ctx})보다 작아야 합니다. 대화도 컨텍스트 공간이 필요합니다.</translation>
    </message>
    <message>
        <source>These sampling values cannot be used: {detail}</source>
        <extracomment>A note code without a sentence of its own: a sampling value the form refused.</extracomment>
        <translation>이 샘플링 값은 사용할 수 없습니다: {detail}</translation>
    </message>
    <message>
        <source>Reads images: its vision tower is part of the model.</source>
        <translation>이미지를 읽을 수 있습니다. 비전 인코더가 모델에 포함되어 있습니다.</translation>
    </message>
    <message>
        <source>Reads images with its projector. With pictures, speculation runs with {methods}; not with {refused}.</source>
        <translation>프로젝터로 이미지를 읽습니다. 그림이 있을 때 추측 디코딩은 {methods}(으)로 실행되며 {refused}(으)로는 실행되지 않습니다.</translation>
    </message>
    <message>
        <source>Reads images with its projector; speculation runs with pictures too.</source>
        <translation>프로젝터로 이미지를 읽습니다. 그림이 있어도 추측 디코딩이 실행됩니다.</translation>
    </message>
    <message>
        <source>{engine} computes on the GPU (Metal), so it does not use a CPU thread count; this field does not apply.</source>
        <translation>{engine}은(는) GPU(Metal)에서 계산하므로 CPU 스레드 수를 사용하지 않습니다. 이 항목은 적용되지 않습니다.</translation>
    </message>
    <message>
        <source>{quant} (cached)</source>
        <translation>{quant} (캐시됨)</translation>
    </message>
    <message>
        <source>{quant} (partial)</source>
        <translation>{quant} (일부)</translation>
    </message>
    <message>
        <source>Suffix decoding: drafts from your earlier questions and answers (kept on this computer), so a regenerated or similar answer comes out many tokens per round; the model still checks every token, so the answer is the same. Settings &gt; Forget learned text deletes what it learned; deleting a conversation deletes what that conversation taught.</source>
        <translation>접미사 디코딩: 이전 질문과 답변(이 컴퓨터에만 보관)에서 초안을 만들어, 다시 생성하거나 비슷한 답변은 라운드마다 많은 토큰이 나옵니다. 모델이 모든 토큰을 확인하므로 답변은 같습니다. 설정 &gt; 학습한 텍스트 지우기로 학습한 내용을 삭제하며, 대화를 삭제하면 그 대화에서 학습한 내용도 삭제됩니다.</translation>
    </message>
    <message>
        <source>Prompt lookup: drafts by copying from this request&apos;s own text (the conversation so far), nothing is kept between requests. It helps when the answer repeats the question, such as editing code.</source>
        <translation>프롬프트 조회: 이 요청 자체의 텍스트(지금까지의 대화)에서 복사해 초안을 만들며, 요청 사이에 아무것도 보관하지 않습니다. 코드 편집처럼 답변이 질문을 반복할 때 가장 도움이 됩니다.</translation>
    </message>
    <message>
        <source>Suffix decoding</source>
        <translation>접미사 디코딩</translation>
    </message>
    <message>
        <source>Prompt lookup</source>
        <translation>프롬프트 조회</translation>
    </message>
    <message>
        <source>engine default: {value}</source>
        <translation>엔진 기본값 {value}</translation>
    </message>
    <message>
        <source>This conversation has pictures, and this model reads text only: a message with a picture cannot go to it. Choose a model that reads images, or start a new conversation.</source>
        <extracomment>What the launch dialog says when the conversation that launches has pictures this launch cannot read (``CHAT_IMAGES_UNREADABLE``), by the note&apos;s ``why``.</extracomment>
        <translation>이 대화에는 사진이 있지만 이 모델은 텍스트만 읽습니다. 사진이 있는 메시지는 이 모델에 보낼 수 없습니다. 이미지를 읽는 모델을 고르거나 새 대화를 시작하세요.</translation>
    </message>
    <message>
        <source>This conversation has pictures, but this launch reads text only: the model&apos;s image projector (mmproj) is not downloaded. Download the model again from the Models page.</source>
        <translation>이 대화에는 사진이 있지만 이번 실행은 텍스트만 읽습니다. 모델의 이미지 프로젝터(mmproj)가 다운로드되지 않았습니다. 모델 페이지에서 모델을 다시 다운로드하세요.</translation>
    </message>
    <message>
        <source>This conversation has pictures, but {method} cannot run with pictures here: this launch reads text only. Choose another speculation method to send them.</source>
        <translation>이 대화에는 사진이 있지만 여기서는 {method}이(가) 사진과 함께 실행될 수 없습니다. 이번 실행은 텍스트만 읽습니다. 사진을 보내려면 다른 추측 방법을 고르세요.</translation>
    </message>
    <message>
        <source>Tokens per round: how many tokens are drafted before the model verifies them. The model adds one token of its own every round, so a round yields at most this many plus one. Leave empty for the engine default.</source>
        <translation>라운드당 토큰 수: 모델이 검증하기 전에 초안으로 만드는 토큰 수입니다. 모델은 매 라운드 자체 토큰 하나를 더하므로 한 라운드는 최대 이 수 + 1개를 생성합니다. 비워 두면 엔진 기본값을 사용합니다.</translation>
    </message>
    <message>
        <source>On MLX the Gemma 4 assistant is trained on blocks of {block} tokens that include the verified token, so it drafts {value} per round by default.</source>
        <translation>MLX에서 Gemma 4 어시스턴트는 검증된 토큰을 포함한 {block}개 토큰 블록으로 학습되었으므로 기본적으로 라운드당 {value}개를 초안으로 만듭니다.</translation>
    </message>
    <message>
        <source>On MLX suffix decoding and prompt lookup this is the longest draft in a round; a round drafts fewer when the learned text is less sure.</source>
        <translation>MLX 접미사 디코딩과 프롬프트 조회에서는 한 라운드의 가장 긴 초안입니다. 학습한 텍스트의 확신이 낮으면 라운드의 초안이 짧아집니다.</translation>
    </message>
    <message>
        <source>On MLX this is the drafter&apos;s block size minus the verified token; empty uses the depth the drafter was trained for.</source>
        <translation>MLX에서는 드래프트 모델의 블록 크기에서 검증된 토큰을 뺀 값입니다. 비워 두면 드래프트 모델이 학습된 깊이를 사용합니다.</translation>
    </message>
    <message>
        <source>On llama.cpp n-gram methods this is the longest draft taken from earlier text in a round.</source>
        <translation>llama.cpp n-gram 방식에서는 한 라운드에 이전 텍스트에서 가져오는 가장 긴 초안입니다.</translation>
    </message>
    <message>
        <source>On llama.cpp this is the drafter&apos;s maximum draft length (draft.n_max); a round may draft fewer when the drafter is unsure.</source>
        <translation>llama.cpp에서는 드래프트 모델의 최대 드래프트 길이(draft.n_max)입니다. 드래프트 모델이 확신하지 못하면 한 라운드에서 더 적게 제안할 수 있습니다.</translation>
    </message>
    <message>
        <source>Default here: {value} ({source}).</source>
        <translation>여기서의 기본값: {value} ({source}).</translation>
    </message>
    <message>
        <source>recommended for this Gemma 4 size</source>
        <translation>이 Gemma 4 크기의 권장값</translation>
    </message>
    <message>
        <source>the drafter&apos;s trained depth</source>
        <translation>드래프트 모델이 학습된 깊이</translation>
    </message>
    <message>
        <source>not offered by this engine</source>
        <translation>이 엔진에서는 제공되지 않음</translation>
    </message>
    <message>
        <source>Tandem&apos;s longest draft for this method</source>
        <translation>이 방법에 대한 Tandem의 최장 초안</translation>
    </message>
    <message>
        <source>Tandem&apos;s longest draft; each round&apos;s depth follows the measured acceptance</source>
        <translation>Tandem의 최장 초안. 각 라운드의 깊이는 측정된 수락률을 따릅니다</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s own default</source>
        <translation>llama.cpp 자체 기본값</translation>
    </message>
    <message>
        <source>Drafts with the model&apos;s own multi-token prediction (MTP) heads: they propose several tokens per round and the model verifies them in one pass, so the answer is identical. The heads are part of the model&apos;s file; nothing is downloaded.</source>
        <translation>모델 자체의 다중 토큰 예측(MTP) 헤드로 초안을 만듭니다. 헤드가 라운드마다 여러 토큰을 제안하고 모델이 한 번에 검증하므로 답변은 동일합니다. 헤드는 모델 파일의 일부이며, 아무것도 다운로드하지 않습니다.</translation>
    </message>
    <message>
        <source>Runs a small drafter beside the model. The drafter proposes several tokens per round and the model verifies them in one pass: the answer is identical, decoding is faster.</source>
        <translation>작은 드래프터를 모델과 함께 실행합니다. 드래프터가 라운드마다 여러 토큰을 제안하고 모델이 한 번에 검증합니다. 답변은 동일하고 디코딩은 더 빨라집니다.</translation>
    </message>
    <message>
        <source>The drafter ({quant}) is already on this computer; nothing is downloaded.</source>
        <translation>드래프터({quant})가 이미 이 컴퓨터에 있습니다. 아무것도 다운로드하지 않습니다.</translation>
    </message>
    <message>
        <source>The drafter ({quant}) is not on this computer yet: launching with it on downloads it first.</source>
        <translation>드래프터({quant})가 아직 이 컴퓨터에 없습니다. 켠 채로 실행하면 먼저 다운로드합니다.</translation>
    </message>
    <message>
        <source>Auto is off: this launch answers without speculation. Turn Auto on to let Tandem choose, or choose a drafter or a model-free method below.</source>
        <translation>Auto가 꺼져 있습니다: 이번 실행은 추측 없이 답합니다. Tandem이 고르게 하려면 Auto를 켜거나, 아래에서 드래프터나 모델 없는 방식을 고르세요.</translation>
    </message>
    <message>
        <source>the model&apos;s own MTP heads</source>
        <translation>모델 자체의 MTP 헤드</translation>
    </message>
    <message>
        <source>the MTP assistant</source>
        <translation>MTP 어시스턴트</translation>
    </message>
    <message>
        <source>the drafter model ({method})</source>
        <translation>드래프트 모델({method})</translation>
    </message>
    <message>
        <source>the drafter model</source>
        <translation>드래프트 모델</translation>
    </message>
    <message>
        <source>This launch drafts with {what}, as many tokens per round as the engine&apos;s default.</source>
        <translation>이번 실행은 {what}(으)로 초안을 만들며, 라운드당 토큰 수는 엔진 기본값입니다.</translation>
    </message>
    <message>
        <source>This launch drafts with {what}, up to {depth} tokens per round.</source>
        <translation>이번 실행은 {what}(으)로 초안을 만들며, 라운드당 최대 {depth}개 토큰입니다.</translation>
    </message>
    <message>
        <source>Auto is off.</source>
        <translation>Auto가 꺼져 있습니다.</translation>
    </message>
    <message>
        <source>Auto is off while the drafter is on: turn the drafter off to go back to Auto.</source>
        <translation>드래프터가 켜져 있는 동안 Auto는 꺼집니다. 드래프터를 끄면 Auto로 돌아갑니다.</translation>
    </message>
    <message>
        <source>Auto is off while a model-free method is chosen: choose Off there to go back to Auto.</source>
        <translation>모델 없는 방식을 고른 동안 Auto는 꺼집니다. 그곳에서 &apos;끔&apos;을 고르면 Auto로 돌아갑니다.</translation>
    </message>
    <message>
        <source>the model card</source>
        <translation>모델 카드</translation>
    </message>
    <message>
        <source>Starts at {value}, recommended by the model card ({source}).</source>
        <translation>시작값은 {value}이며 모델 카드의 권장값입니다({source}).</translation>
    </message>
    <message>
        <source>Starts at {value}, Tandem&apos;s default (Settings).</source>
        <translation>시작값은 {value}이며 Tandem의 기본값(설정)입니다.</translation>
    </message>
    <message>
        <source>Launch {name}</source>
        <translation>{name} 실행</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>이 컴퓨터</translation>
    </message>
    <message>
        <source>Remote server</source>
        <translation>원격 서버</translation>
    </message>
    <message>
        <source>Chat through your own vLLM, SGLang or llama-server (an OpenAI-compatible API).</source>
        <translation>직접 운영하는 vLLM, SGLang 또는 llama-server(OpenAI 호환 API)를 통해 대화합니다.</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>Speculation</source>
        <translation>추측 방식</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>변형</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>양자화</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>엔진</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>메모리</translation>
    </message>
    <message>
        <source>Only engines that can run this model&apos;s format are listed.</source>
        <translation>이 모델의 형식을 실행할 수 있는 엔진만 표시됩니다.</translation>
    </message>
    <message>
        <source>Speculative Decoding</source>
        <translation>추측 디코딩</translation>
    </message>
    <message>
        <source>Speculation can be slower when the drafter is expensive relative to the model, for example with mixture-of-experts models. Tandem measures every answer: the statistics strip shows tokens/s and how many drafted tokens were accepted, so you can see whether it pays.</source>
        <translation>드래프트 모델의 비용이 모델에 비해 크면(예: 전문가 혼합 모델) 추측이 오히려 느려질 수 있습니다. Tandem은 모든 답변을 측정하며, 통계 표시줄에 초당 토큰 수와 수락된 드래프트 토큰 수가 나와 효과가 있는지 확인할 수 있습니다.</translation>
    </message>
    <message>
        <source>Drafter</source>
        <translation>드래프터</translation>
    </message>
    <message>
        <source>Drafter Quantization</source>
        <translation>드래프트 모델 양자화</translation>
    </message>
    <message>
        <source>Defaults to the first available</source>
        <translation>기본값은 첫 번째 사용 가능 항목</translation>
    </message>
    <message>
        <source>The drafter is small, so quantizing it saves little memory but lowers how many of its tokens are accepted. An unquantized drafter is recommended even for a quantized model.</source>
        <translation>드래프트 모델은 작아서 양자화해도 메모리 절약은 적고 토큰 수락률만 낮아집니다. 양자화된 모델이라도 양자화하지 않은 드래프트 모델을 권장합니다.</translation>
    </message>
    <message>
        <source>Speculative Tokens</source>
        <translation>추측 토큰 수</translation>
    </message>
    <message>
        <source>Model-free speculation</source>
        <translation>모델 없는 추측</translation>
    </message>
    <message>
        <source>Drafts from repeated text in the prompt and earlier answers, with no extra model. It helps most when answers repeat or edit earlier text, such as code.</source>
        <translation>추가 모델 없이 프롬프트와 이전 답변의 반복되는 텍스트로 드래프트를 만듭니다. 코드처럼 이전 텍스트를 반복하거나 고치는 답변에서 가장 효과적입니다.</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>방식</translation>
    </message>
    <message>
        <source>Runtime and sampling</source>
        <translation>실행 및 샘플링</translation>
    </message>
    <message>
        <source>Context length</source>
        <translation>컨텍스트 길이</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>스레드 수</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>자동</translation>
    </message>
    <message>
        <source>CPU threads the engine computes with.</source>
        <translation>엔진이 계산에 쓰는 CPU 스레드.</translation>
    </message>
    <message>
        <source>{n} threads, as typed. Automatic would start with {auto}: the cores that do math on this computer.</source>
        <translation>{n}개 스레드(직접 입력). 자동이면 {auto}개로 시작합니다: 이 컴퓨터에서 계산을 맡는 코어 수입니다.</translation>
    </message>
    <message>
        <source>Automatic: {n} threads, one per performance core ({n} of {cpus} CPUs), as llama.cpp counts them.</source>
        <translation>자동: {n}개 스레드. 성능 코어마다 하나씩({cpus}개 CPU 중 {n}개)이며 llama.cpp와 같은 방식으로 셉니다.</translation>
    </message>
    <message>
        <source>Automatic: {n} threads, one per physical core ({cpus} CPUs with hyper-threading), as llama.cpp counts them.</source>
        <translation>자동: {n}개 스레드. 물리 코어마다 하나씩(하이퍼스레딩 포함 {cpus}개 CPU)이며 llama.cpp와 같은 방식으로 셉니다.</translation>
    </message>
    <message>
        <source>Automatic: {n} threads, one per core, as llama.cpp counts them.</source>
        <translation>자동: {n}개 스레드. 코어마다 하나씩이며 llama.cpp와 같은 방식으로 셉니다.</translation>
    </message>
    <message>
        <source>Fewer when other programs keep cores busy or another model computes at the same time: each model starts with the cores that are free then, and an idle model follows them.</source>
        <translation>다른 프로그램이 코어를 쓰고 있거나 다른 모델이 동시에 계산할 때는 더 적어집니다. 각 모델은 그때 비어 있는 코어로 시작하고, 쉬고 있는 모델은 그에 맞춰 바뀝니다.</translation>
    </message>
    <message>
        <source>Automatic: the context the model was trained for, as far as the memory estimate allows (at least 4,096 tokens). Coding agents need 8,192 tokens or more.</source>
        <translation>자동: 모델이 학습된 컨텍스트 길이를 메모리 추정이 허용하는 만큼 사용합니다(최소 4,096 토큰). 코딩 에이전트에는 8,192 토큰 이상이 필요합니다.</translation>
    </message>
    <message>
        <source>Automatic: {n} threads</source>
        <translation>자동: 스레드 {n}개</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>온도</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Max new tokens</source>
        <translation>최대 생성 토큰 수</translation>
    </message>
    <message>
        <source>Repeat penalty</source>
        <translation>반복 페널티</translation>
    </message>
    <message>
        <source>Higher gives more varied answers; 0 always picks the most likely token.</source>
        <translation>높을수록 답변이 다양해집니다. 0이면 항상 가장 가능성 높은 토큰을 고릅니다.</translation>
    </message>
    <message>
        <source>Samples only from the most likely tokens that together reach this probability.</source>
        <translation>누적 확률이 이 값에 이르는 가장 가능성 높은 토큰들에서만 샘플링합니다.</translation>
    </message>
    <message>
        <source>Samples only from this many most likely tokens; 0 is off.</source>
        <translation>가장 가능성 높은 이 개수의 토큰에서만 샘플링합니다. 0은 끔입니다.</translation>
    </message>
    <message>
        <source>Above 1 makes repeating recent text less likely; 1 is off.</source>
        <translation>1보다 크면 최근 텍스트를 반복할 가능성이 줄어듭니다. 1은 끔입니다.</translation>
    </message>
    <message>
        <source>The longest answer, in tokens. Starts at {value}, Tandem&apos;s default (Settings).</source>
        <translation>답변의 최대 길이(토큰 수)입니다. 시작값은 {value}이며 Tandem의 기본값(설정)입니다.</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>실행</translation>
    </message>
</context>
<context>
    <name>LoadBar</name>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Tandem</source>
        <translation>Tandem</translation>
    </message>
    <message>
        <source>Chat</source>
        <extracomment>the column&apos;s width (px)</extracomment>
        <translation>채팅</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation>다운로드</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>설정</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>언어</translation>
    </message>
    <message>
        <source>Model: {name}</source>
        <translation>모델: {name}</translation>
    </message>
    <message>
        <source>Engine: {name}</source>
        <translation>엔진: {name}</translation>
    </message>
    <message>
        <source>Speculation: {mode}</source>
        <translation>추측: {mode}</translation>
    </message>
    <message>
        <source>Speculation: off</source>
        <translation>추측: 끔</translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation>모델 없음</translation>
    </message>
    <message>
        <source>Memory: {value}</source>
        <translation>메모리: {value}</translation>
    </message>
    <message>
        <source>Each conversation&apos;s speculation runs in a configuration of the loaded model, started on first use beside it and stopped when idle; the weights are shared, each configuration adds its own cache.</source>
        <translation>각 대화의 추측 디코딩은 로드된 모델의 구성 중 하나에서 실행됩니다. 처음 사용할 때 옆에서 시작되고 유휴 상태가 되면 중지됩니다. 가중치는 공유되며 구성마다 자체 캐시만 추가됩니다.</translation>
    </message>
    <message>
        <source>Loading {name}…</source>
        <translation>{name} 불러오는 중…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>취소 중…</translation>
    </message>
    <message>
        <source>Loading: {step}</source>
        <translation>불러오는 중: {step}</translation>
    </message>
    <message>
        <source>The model could not be loaded</source>
        <translation>모델을 불러오지 못했습니다</translation>
    </message>
    <message>
        <source>Eject</source>
        <extracomment>how often the memory, the threads and the pool are read again (ms) the loaded model&apos;s engine pool: the configurations running now the loaded models, their memory and an Unload each (a menu)</extracomment>
        <translation>꺼내기</translation>
    </message>
    <message>
        <source>Unload the model and free the memory it holds</source>
        <translation>모델을 언로드하고 사용 중인 메모리를 해제합니다</translation>
    </message>
    <message>
        <source>as set in the launch dialog</source>
        <translation>실행 대화 상자에서 정한 대로</translation>
    </message>
    <message>
        <source>one per core that does math ({n}), all free</source>
        <translation>계산을 맡는 코어마다 하나({n}개), 모두 비어 있음</translation>
    </message>
    <message>
        <source>other programs keep {busy} of the {n} cores that do math busy</source>
        <translation>다른 프로그램이 계산을 맡는 코어 {n}개 중 {busy}개를 쓰고 있음</translation>
    </message>
    <message>
        <source>other models hold {shared} of the {n} cores that do math</source>
        <translation>다른 모델이 계산을 맡는 코어 {n}개 중 {shared}개를 차지함</translation>
    </message>
    <message>
        <source>every core that does math is taken, so the fewest</source>
        <translation>계산을 맡는 코어가 모두 사용 중이라 가장 적은 스레드</translation>
    </message>
    <message>
        <source>Auto&apos;s measurement found that more threads do not pay here</source>
        <translation>Auto의 측정 결과 여기서는 스레드를 늘려도 이득이 없습니다</translation>
    </message>
    <message>
        <source>CPU threads of the model&apos;s llama.cpp processes:</source>
        <translation>모델의 llama.cpp 프로세스가 쓰는 CPU 스레드:</translation>
    </message>
    <message>
        <source>the model</source>
        <translation>불러온 모델</translation>
    </message>
    <message>
        <source>{configuration}: {n} threads</source>
        <translation>{configuration}: 스레드 {n}개</translation>
    </message>
    <message>
        <source>A model at rest follows the free cores; a thread count set in the launch dialog wins.</source>
        <translation>쉬고 있는 모델은 비어 있는 코어에 맞춰 바뀝니다. 실행 대화 상자에서 정한 스레드 수가 우선합니다.</translation>
    </message>
    <message>
        <source>This conversation&apos;s choice, beside its title; the model was loaded with {launch}</source>
        <translation>이 대화의 선택(제목 옆)입니다. 모델은 {launch}(으)로 로드되었습니다</translation>
    </message>
    <message>
        <source>no speculation</source>
        <translation>추측 없음</translation>
    </message>
    <message>
        <source>Models: {n} ({memory})</source>
        <translation>모델: {n} ({memory})</translation>
    </message>
    <message>
        <source>Loaded models: {memory} of the {budget} they may take together. A model used before stays loaded while it fits; the least recently used one goes first.</source>
        <translation>불러온 모델: 모두 합쳐 {memory} (한도 {budget}). 전에 쓴 모델은 메모리가 허락하는 동안 그대로 남고, 가장 오래 쓰지 않은 모델부터 내려갑니다.</translation>
    </message>
    <message>
        <source>Unload {model} ({memory})</source>
        <translation>{model} 내리기 ({memory})</translation>
    </message>
    <message>
        <source>(answers now)</source>
        <translation>(지금 답하는 모델)</translation>
    </message>
    <message>
        <source>It is answering; unload it after.</source>
        <translation>답하는 중입니다. 답이 끝난 뒤 내리세요.</translation>
    </message>
    <message>
        <source>Also running: {configurations} (+{memory})</source>
        <translation>함께 실행 중: {configurations} (+{memory})</translation>
    </message>
    <message>
        <source>{configuration}: {tps} tok/s (answers: {requests})</source>
        <translation>{configuration}: {tps} tok/s (답변 수: {requests})</translation>
    </message>
    <message>
        <source>Model unloaded; its memory is freed.</source>
        <translation>모델을 언로드했으며 메모리가 해제되었습니다.</translation>
    </message>
    <message>
        <source>Loading cancelled</source>
        <translation>불러오기 취소됨</translation>
    </message>
    <message>
        <source>Added to downloads</source>
        <translation>다운로드에 추가됨</translation>
    </message>
    <message>
        <source>A download failed</source>
        <translation>다운로드 실패</translation>
    </message>
    <message>
        <source>Settings could not be saved</source>
        <translation>설정을 저장하지 못했습니다</translation>
    </message>
    <message>
        <source>Quit Tandem?</source>
        <extracomment>the question Quit asks while an answer is being written (None when not open)</extracomment>
        <translation>Tandem을 종료할까요?</translation>
    </message>
    <message>
        <source>An answer is still being written. Quitting stops it.</source>
        <translation>아직 답변을 작성하는 중입니다. 종료하면 답변이 멈춥니다.</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>종료</translation>
    </message>
</context>
<context>
    <name>MessageBubble</name>
    <message>
        <source>Tool call</source>
        <translation>도구 호출</translation>
    </message>
    <message>
        <source>Writing the answer…</source>
        <translation>답변을 작성하는 중…</translation>
    </message>
    <message>
        <source>Stopped before the first word.</source>
        <translation>첫 단어가 나오기 전에 중지되었습니다.</translation>
    </message>
    <message>
        <source>Interrupted before the first word.</source>
        <translation>첫 단어가 나오기 전에 중단되었습니다.</translation>
    </message>
    <message>
        <source>Failed before the first word.</source>
        <translation>첫 단어가 나오기 전에 실패했습니다.</translation>
    </message>
    <message>
        <source>The model gave an empty answer.</source>
        <translation>모델이 빈 답변을 했습니다.</translation>
    </message>
    <message>
        <source>You</source>
        <translation>나</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>어시스턴트</translation>
    </message>
    <message>
        <source>Tool result</source>
        <translation>도구 결과</translation>
    </message>
    <message>
        <source>Result of {name}</source>
        <translation>{name} 결과</translation>
    </message>
    <message>
        <source>Show or hide what the tool returned</source>
        <translation>도구가 반환한 내용 표시 또는 숨기기</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>중지됨</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>중단됨</translation>
    </message>
    <message>
        <source>Tandem was closed while this answer was being written; the text saved so far is shown. Regenerate writes it again.</source>
        <translation>이 답변을 쓰는 중에 Tandem이 종료되었습니다. 저장된 부분까지 표시합니다. &apos;다시 생성&apos;으로 다시 쓸 수 있습니다.</translation>
    </message>
    <message>
        <source>Earlier turns were left out to fit the model&apos;s context.</source>
        <translation>모델의 컨텍스트에 맞추기 위해 이전 대화는 제외했습니다.</translation>
    </message>
    <message>
        <source>Messages not sent to the model: {count}. Only the newest turns fit.</source>
        <translation>모델에 보내지 않은 메시지: {count}개. 최근 대화만 들어갑니다.</translation>
    </message>
    <message>
        <source>Copy</source>
        <extracomment>a streamed answer&apos;s finished blocks go into frozen labels of about this many characters each, so appending a block lays out one bounded label, never the whole answer a streamed answer longer than this keeps its frozen labels when it ends (rendering a long answer again as one text holds the window at its end); shorter ones end as one text, as a loaded answer shows the colours and labels of the last render: a new palette or language renders again earlier messages left out of this answer&apos;s prompt to fit the context (0: none) the loaded family&apos;s ``tool_parser`` (tool calls shown as blocks) an answer&apos;s tool calls, one block each, under its text a ``tool`` message: the tool whose result it is what an answer not written yet is doing (&quot;Reading the documents…&quot;); &quot;&quot; for the usual note the message&apos;s images, above its text; click one to enlarge it a user message&apos;s documents, as chips under its images; click one to open it an answer&apos;s sources: the documents and passages it was given</extracomment>
        <translation>복사</translation>
    </message>
    <message>
        <source>Copy the text of this message</source>
        <translation>이 메시지의 텍스트 복사</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>편집</translation>
    </message>
    <message>
        <source>Edit and resend: the answers after it are replaced</source>
        <translation>편집 후 다시 보내기: 이후의 답변은 교체됩니다</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>다시 생성</translation>
    </message>
    <message>
        <source>Generate this answer again</source>
        <translation>이 답변을 다시 생성</translation>
    </message>
</context>
<context>
    <name>ModelChoice</name>
    <message>
        <source>Loaded model ({name})</source>
        <extracomment>the mark of a loaded model in the list</extracomment>
        <translation>불러온 모델 ({name})</translation>
    </message>
    <message>
        <source>Loaded model</source>
        <translation>불러온 모델</translation>
    </message>
    <message>
        <source>Answer with whatever model is loaded</source>
        <translation>불러온 모델로 답합니다</translation>
    </message>
    <message>
        <source>Loaded: answers at once</source>
        <translation>불러옴: 바로 답합니다</translation>
    </message>
    <message>
        <source>On disk: the next message loads it</source>
        <translation>디스크에 있음: 다음 메시지에서 불러옵니다</translation>
    </message>
    <message>
        <source>No longer on disk: download it again from the Models page</source>
        <translation>디스크에 더 이상 없음: 모델 페이지에서 다시 내려받으세요</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>모델:</translation>
    </message>
    <message>
        <source>The model this conversation answers with. Another model loads with your next message; the one used before stays loaded while memory allows.</source>
        <translation>이 대화가 답할 때 쓰는 모델입니다. 다른 모델은 다음 메시지에서 불러오며, 전에 쓴 모델은 메모리가 허락하는 동안 남아 있습니다.</translation>
    </message>
</context>
<context>
    <name>ModelFilesController</name>
    <message>
        <source>The repository could not be listed</source>
        <translation>저장소의 파일 목록을 가져올 수 없습니다</translation>
    </message>
    <message>
        <source>Listing the repository…</source>
        <translation>저장소 파일 목록을 가져오는 중…</translation>
    </message>
    <message>
        <source>{repo} holds {n} quantizations.</source>
        <translation>{repo}에는 양자화가 {n}개 있습니다.</translation>
    </message>
    <message>
        <source>Added: {quants}.</source>
        <translation>추가됨: {quants}.</translation>
    </message>
    <message>
        <source>Not in the repository: {quants}.</source>
        <translation>저장소에 없음: {quants}.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>Drafter quantizations: {quants}.</source>
        <translation>드래프터 양자화: {quants}.</translation>
    </message>
    <message>
        <source>The files could not be deleted</source>
        <translation>파일을 삭제하지 못했습니다</translation>
    </message>
    <message>
        <source>Removed {model} from Tandem with its unfinished download ({size}).</source>
        <translation>{model}을(를) 완료되지 않은 다운로드({size})와 함께 Tandem에서 제거했습니다.</translation>
    </message>
    <message>
        <source>Removed {model} from Tandem; its files stay in the hub cache.</source>
        <translation>Tandem에서 {model}을(를) 제거했습니다. 파일은 허브 캐시에 남아 있습니다.</translation>
    </message>
    <message>
        <source>Deleted {model}: {size} of disk space freed.</source>
        <translation>{model}을(를) 삭제했습니다: 디스크 공간 {size}를 확보했습니다.</translation>
    </message>
    <message>
        <source>Removed {model} from Tandem; no disk space was freed (its files are still used by other Tandem models, or were already gone).</source>
        <translation>Tandem에서 {model}을(를) 제거했습니다. 디스크 공간은 확보되지 않았습니다(파일을 다른 Tandem 모델이 아직 사용하거나 이미 없습니다).</translation>
    </message>
</context>
<context>
    <name>RegistryModel</name>
    <message>
        <source>Downloaded</source>
        <extracomment>The roles the spec tree answers; a repaint asks every cell for a dozen roles (font, background, check state...), so the others return before any work (browser case). The family table stores exactly its roles in Qt items. &quot;disk&quot;: what the family&apos;s files use, measured for the &quot;My models&quot; scope only</extracomment>
        <translation>다운로드됨</translation>
    </message>
    <message>
        <source>Partially downloaded</source>
        <translation>일부 다운로드됨</translation>
    </message>
    <message>
        <source>Not downloaded</source>
        <translation>다운로드 안 됨</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>확인 중…</translation>
    </message>
    <message>
        <source>unverified</source>
        <translation>미확인</translation>
    </message>
    <message>
        <source>{hub}: unverified. No stored public page confirms {repo} and its file names; the download checks the repository&apos;s own listing and says what it finds.</source>
        <translation>{hub}: 미확인. {repo}와 그 파일 이름을 확인해 주는 저장된 공개 페이지가 없습니다. 다운로드할 때 저장소 자체의 파일 목록을 확인하고 찾은 내용을 알려 줍니다.</translation>
    </message>
    <message>
        <source>{hub}: checked on {date} against {url}</source>
        <translation>{hub}: {date}에 {url}에서 확인함</translation>
    </message>
    <message>
        <source>Mixture of experts: {active}B of {total}B parameters run per token. A drafter often slows MoE models down: verifying several drafted tokens wakes more experts than generating one.</source>
        <translation>전문가 혼합(MoE): 토큰마다 {total}B 중 {active}B 파라미터가 실행됩니다. 드래프터는 MoE 모델을 오히려 느리게 만드는 경우가 많습니다. 여러 초안 토큰을 검증하면 토큰 하나를 생성할 때보다 더 많은 전문가가 깨어나기 때문입니다.</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>Formats</source>
        <translation>형식</translation>
    </message>
    <message>
        <source>Sizes</source>
        <translation>크기</translation>
    </message>
    <message>
        <source>Drafter</source>
        <translation>드래프트</translation>
    </message>
    <message>
        <source>On disk</source>
        <translation>디스크</translation>
    </message>
    <message>
        <source>Has a drafter for speculative decoding</source>
        <translation>추측 디코딩용 드래프트 모델 있음</translation>
    </message>
    <message>
        <source>No drafter</source>
        <translation>드래프트 모델 없음</translation>
    </message>
    <message>
        <source>Measuring the disk its files use…</source>
        <translation>파일이 사용하는 디스크 용량을 계산하는 중…</translation>
    </message>
    <message>
        <source>invalid</source>
        <translation>유효하지 않음</translation>
    </message>
    <message>
        <source>Variant</source>
        <extracomment>the memory verdicts of the shown family, computed off the GUI thread (None: no column) the recommendations of the last verdict batch asked for (kept with the batch itself)</extracomment>
        <translation>변형</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>메모리</translation>
    </message>
    <message>
        <source>Will it fit in this machine&apos;s free memory at the context length of the settings? ★ marks the largest quantization that fits.</source>
        <translation>설정의 컨텍스트 길이에서 이 컴퓨터의 여유 메모리에 들어가는지 보여 줍니다. ★는 들어가는 가장 큰 양자화입니다.</translation>
    </message>
    <message>
        <source>A small model that proposes tokens for this one to verify; used by speculative decoding.</source>
        <translation>이 모델이 검증할 토큰을 제안하는 작은 모델로, 추측 디코딩에 사용됩니다.</translation>
    </message>
    <message>
        <source>The vision projector (mmproj) that lets this model read images; it is downloaded with the model and deleted with it.</source>
        <translation>이 모델이 이미지를 읽게 해 주는 비전 프로젝터(mmproj)입니다. 모델과 함께 다운로드되고 모델과 함께 삭제됩니다.</translation>
    </message>
    <message>
        <source>with drafter</source>
        <translation>드래프트 포함</translation>
    </message>
    <message>
        <source>built-in MTP</source>
        <translation>MTP 내장</translation>
    </message>
    <message>
        <source>Drafter quantizations</source>
        <translation>드래프트 모델 양자화</translation>
    </message>
    <message>
        <source>Image projector (mmproj)</source>
        <translation>이미지 프로젝터(mmproj)</translation>
    </message>
    <message>
        <source>Model quantizations</source>
        <translation>모델 양자화</translation>
    </message>
    <message>
        <source>default</source>
        <translation>기본</translation>
    </message>
    <message>
        <source>Memory use unknown: {reason}</source>
        <translation>메모리 사용량을 알 수 없음: {reason}</translation>
    </message>
    <message>
        <source>Estimating the memory it needs…</source>
        <translation>필요한 메모리를 추정하는 중…</translation>
    </message>
    <message>
        <source>The disk its files use: every downloaded quantization, its drafters and its image projector. A file several models share is counted once.</source>
        <translation>파일이 사용하는 디스크 용량: 다운로드한 모든 양자화, 드래프터, 이미지 프로젝터. 여러 모델이 함께 쓰는 파일은 한 번만 셉니다.</translation>
    </message>
    <message>
        <source>{size} on disk</source>
        <translation>디스크 {size}</translation>
    </message>
    <message>
        <source>({size} of it in unfinished downloads)</source>
        <translation>(그중 {size}는 완료되지 않은 다운로드)</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>들어감</translation>
    </message>
    <message>
        <source>Tight</source>
        <translation>빠듯함</translation>
    </message>
    <message>
        <source>Too large</source>
        <translation>너무 큼</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>알 수 없음</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>알 수 없음</translation>
    </message>
    <message>
        <source>{size} (estimated from the parameter count)</source>
        <translation>{size} (파라미터 수로 추정)</translation>
    </message>
    <message>
        <source>{size} (from the hub listing)</source>
        <translation>{size} (허브 파일 목록 기준)</translation>
    </message>
    <message>
        <source>{size} (as the hub listed it when the catalog entry was checked)</source>
        <translation>{size}(카탈로그 항목을 확인할 때 허브에 표시된 크기)</translation>
    </message>
    <message>
        <source>unknown until a file is downloaded (its header gives it)</source>
        <translation>파일을 내려받기 전에는 알 수 없음 (파일 헤더에서 구함)</translation>
    </message>
    <message>
        <source>unknown until it is listed or downloaded</source>
        <translation>목록을 받거나 내려받기 전에는 알 수 없음</translation>
    </message>
    <message>
        <source>{verdict} at {ctx} tokens</source>
        <translation>{ctx} 토큰에서 {verdict}</translation>
    </message>
    <message>
        <source>Weights: {size}</source>
        <translation>가중치: {size}</translation>
    </message>
    <message>
        <source>KV cache: {size}</source>
        <translation>KV 캐시: {size}</translation>
    </message>
    <message>
        <source>Drafter: {size}</source>
        <translation>드래프트: {size}</translation>
    </message>
    <message>
        <source>Overhead: {size}</source>
        <translation>오버헤드: {size}</translation>
    </message>
    <message>
        <source>Total: {size}</source>
        <translation>합계: {size}</translation>
    </message>
    <message>
        <source>Available now: {size}</source>
        <translation>현재 사용 가능: {size}</translation>
    </message>
    <message>
        <source>★ The largest quantization that fits</source>
        <translation>★ 들어가는 가장 큰 양자화</translation>
    </message>
</context>
<context>
    <name>RemoteTab</name>
    <message>
        <source>Stored in the system keyring for this endpoint when the server answers.</source>
        <extracomment>(server engine, label) offered for the serve command None: no key was typed; True: stored in the keyring; False: the keyring did not keep it</extracomment>
        <translation>서버가 응답하면 이 엔드포인트용으로 시스템 키링에 저장됩니다.</translation>
    </message>
    <message>
        <source>A key is stored in the keyring for this endpoint; leave the field empty to use it.</source>
        <translation>이 엔드포인트의 키가 키링에 저장되어 있습니다. 사용하려면 비워 두세요.</translation>
    </message>
    <message>
        <source>Asking {url} for its models…</source>
        <translation>{url}에 모델을 조회하는 중…</translation>
    </message>
    <message>
        <source>{n} model(s) on this server ({kind}).</source>
        <translation>이 서버에 모델 {n}개가 있습니다({kind}).</translation>
    </message>
    <message>
        <source>The system keyring did not keep the key: Tandem uses it for this launch only.</source>
        <translation>시스템 키링에 키가 저장되지 않았습니다. Tandem은 이번 실행에서만 사용합니다.</translation>
    </message>
    <message>
        <source>The server&apos;s models could not be listed</source>
        <translation>서버의 모델 목록을 가져올 수 없습니다</translation>
    </message>
    <message>
        <source>OpenAI-compatible</source>
        <translation>OpenAI 호환</translation>
    </message>
    <message>
        <source>The statistics strip shows the rounds and acceptance this server reports (when it runs with a drafter).</source>
        <translation>통계 표시줄에 이 서버가 보고하는 라운드와 수락률이 표시됩니다(드래프터와 함께 실행 중일 때).</translation>
    </message>
    <message>
        <source>This server does not report acceptance: the statistics strip shows its speed only.</source>
        <translation>이 서버는 수락률을 보고하지 않습니다. 통계 표시줄에는 속도만 표시됩니다.</translation>
    </message>
    <message>
        <source>The server&apos;s own launch settings decide speculation. The statistics strip shows the rounds and acceptance where the server reports them (llama.cpp timings, vLLM and SGLang metrics).</source>
        <translation>추측 디코딩은 서버 자체의 실행 설정이 결정합니다. 통계 표시줄에는 서버가 보고하는 라운드와 수락률(llama.cpp timings, vLLM 및 SGLang 지표)이 표시됩니다.</translation>
    </message>
    <message>
        <source>The baseline must be another server: the same model without a drafter.</source>
        <translation>기준선은 다른 서버여야 합니다: 같은 모델을 드래프터 없이 실행한 서버.</translation>
    </message>
    <message>
        <source>Verify needs a second server of the same model without a drafter: start the command below without its drafter options, on another port, and enter its address here.</source>
        <translation>검증하려면 같은 모델을 드래프터 없이 실행하는 두 번째 서버가 필요합니다. 아래 명령에서 드래프터 옵션을 빼고 다른 포트로 시작한 뒤 그 주소를 여기에 입력하세요.</translation>
    </message>
    <message>
        <source>No {engine} command for this model: {reason}</source>
        <translation>이 모델에 대한 {engine} 명령이 없습니다: {reason}</translation>
    </message>
    <message>
        <source>Copied to the clipboard.</source>
        <translation>클립보드에 복사했습니다.</translation>
    </message>
    <message>
        <source>Plain HTTP to {host} would send the key and your chats unencrypted: use https://, or tick Allow plain HTTP if this network is yours.</source>
        <translation>{host}에 일반 HTTP로 연결하면 키와 대화가 암호화되지 않고 전송됩니다. https://를 사용하거나, 본인의 네트워크라면 &apos;이 엔드포인트에 일반 HTTP 허용&apos;을 선택하세요.</translation>
    </message>
    <message>
        <source>Not a server address Tandem connects to: {detail}</source>
        <translation>Tandem이 연결하는 서버 주소가 아닙니다: {detail}</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>서버</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>엔드포인트</translation>
    </message>
    <message>
        <source>The OpenAI API address of your own server (vLLM, SGLang, llama-server or any OpenAI-compatible one). HTTPS is required for other machines.</source>
        <translation>직접 운영하는 서버(vLLM, SGLang, llama-server 또는 OpenAI 호환 서버)의 OpenAI API 주소입니다. 다른 컴퓨터에는 HTTPS가 필요합니다.</translation>
    </message>
    <message>
        <source>Allow plain HTTP for this endpoint</source>
        <translation>이 엔드포인트에 일반 HTTP 허용</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 키</translation>
    </message>
    <message>
        <source>Leave empty if the server needs none</source>
        <translation>서버에 필요 없으면 비워 두세요</translation>
    </message>
    <message>
        <source>Kept in the system keyring for this endpoint only, never in Tandem&apos;s settings.</source>
        <translation>이 엔드포인트 전용으로 시스템 키링에만 보관되며 Tandem 설정에는 저장되지 않습니다.</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>The server&apos;s only model</source>
        <translation>서버의 유일한 모델</translation>
    </message>
    <message>
        <source>List models</source>
        <translation>모델 목록</translation>
    </message>
    <message>
        <source>Ask the server which models it serves</source>
        <translation>서버가 제공하는 모델을 조회합니다</translation>
    </message>
    <message>
        <source>Start a server for {model}</source>
        <translation>{model} 서버 시작</translation>
    </message>
    <message>
        <source>The command that starts the server with this model&apos;s drafter, translated from Tandem&apos;s model entry (the same as `tandem serve-command`).</source>
        <translation>이 모델의 드래프터와 함께 서버를 시작하는 명령으로, Tandem의 모델 항목에서 변환됩니다(`tandem serve-command`와 동일).</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>복사</translation>
    </message>
    <message>
        <source>Check the drafter</source>
        <translation>드래프터 검증</translation>
    </message>
    <message>
        <source>Baseline endpoint (no drafter)</source>
        <translation>기준선(드래프터 없음)</translation>
    </message>
    <message>
        <source>A second server of the same model without a drafter. Verify compares the greedy answers of both: speculative decoding must not change them. Its key is the one stored for it in the keyring, else the endpoint&apos;s key when both run on the same machine.</source>
        <translation>같은 모델을 드래프터 없이 실행하는 두 번째 서버입니다. 검증은 두 서버의 그리디 답변을 비교합니다. 추측 디코딩은 답변을 바꾸면 안 됩니다. 키는 키링에 이 서버용으로 저장된 키를 쓰고, 없으면 두 서버가 같은 컴퓨터에 있을 때 엔드포인트의 키를 씁니다.</translation>
    </message>
    <message>
        <source>Verify output…</source>
        <translation>출력 검증…</translation>
    </message>
    <message>
        <source>Compare greedy answers to a few built-in prompts (prose, code, Chinese, a list, arithmetic) from this endpoint and from the baseline, token by token where the servers give ids</source>
        <translation>몇 가지 기본 제공 프롬프트(산문, 코드, 중국어, 목록, 산술)에 대한 이 엔드포인트와 기준선의 그리디 답변을 비교합니다. 서버가 ID를 주면 토큰 단위로 비교합니다</translation>
    </message>
</context>
<context>
    <name>SamplingDialog</name>
    <message>
        <source>Conversation settings</source>
        <translation>대화 설정</translation>
    </message>
    <message>
        <source>e.g. You are a concise assistant.</source>
        <translation>예: 당신은 간결하게 답하는 어시스턴트입니다.</translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation>시스템 프롬프트</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>온도</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Max new tokens</source>
        <translation>최대 생성 토큰 수</translation>
    </message>
</context>
<context>
    <name>ServerController</name>
    <message>
        <source>Starting the local server</source>
        <extracomment>the start / stop operations, one after the other servers started on an operation thread and not stopped yet; shutdown() stops them all, also one whose start finishes after the window closed (its coroutine is cancelled then) a start or stop is under way the served model&apos;s context in tokens (0 when unknown), read when the server starts the engine pool of the served model (llama.cpp): the window&apos;s (the engine host&apos;s), which closes it with the model the window&apos;s loaded models and the models on disk, served by id (None: the loaded model answers every request)</extracomment>
        <translation>로컬 서버 시작 중</translation>
    </message>
    <message>
        <source>Stopping the local server</source>
        <translation>로컬 서버 중지 중</translation>
    </message>
</context>
<context>
    <name>ServerLog</name>
    <message>
        <source>refused: prompt {prompt} tok &gt; context {context} tok</source>
        <translation>거부됨: 프롬프트 {prompt} 토큰 &gt; 컨텍스트 {context} 토큰</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>성공</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>취소됨</translation>
    </message>
    <message>
        <source>error</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>stream</source>
        <translation>스트림</translation>
    </message>
    <message>
        <source>single</source>
        <translation>단일</translation>
    </message>
    <message>
        <source>{status} {kind}: {prompt}+{completion} tok, {tps} tok/s, drafted {drafted} accepted {accepted} ({rate}), {rounds} rounds, {mean} tok/round</source>
        <translation>{status} {kind}: {prompt}+{completion} 토큰, {tps} 토큰/초, 초안 {drafted} 수락 {accepted} ({rate}), {rounds} 라운드, {mean} 토큰/라운드</translation>
    </message>
    <message>
        <source>, {n} tool calls</source>
        <translation>, 도구 호출 {n}회</translation>
    </message>
</context>
<context>
    <name>ServerPanel</name>
    <message>
        <source>Local server</source>
        <extracomment>the panel opens about this many average characters wide (its texts wrap at that width) the request log shows at least this many lines the request log opens this many lines tall (more requests scroll inside it) the served context, and what to do when an agent&apos;s request did not fit in it (prompt tokens, context) of the last request refused because it did not fit the configurations running for per-request speculation, and what each served stops serving (the status bar&apos;s switch opens this panel while the server runs)</extracomment>
        <translation>로컬 서버</translation>
    </message>
    <message>
        <source>OpenAI- and Anthropic-compatible API of the loaded model</source>
        <translation>불러온 모델의 OpenAI 및 Anthropic 호환 API</translation>
    </message>
    <message>
        <source>API key (send as &apos;Authorization: Bearer &lt;key&gt;&apos; or &apos;x-api-key: &lt;key&gt;&apos;):</source>
        <translation>API 키(&apos;Authorization: Bearer &lt;key&gt;&apos; 또는 &apos;x-api-key: &lt;key&gt;&apos;로 전송):</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>복사</translation>
    </message>
    <message>
        <source>Allow other machines to connect</source>
        <translation>다른 컴퓨터의 연결 허용</translation>
    </message>
    <message>
        <source>Served requests</source>
        <translation>처리한 요청</translation>
    </message>
    <message>
        <source>Use with an agent</source>
        <translation>에이전트와 함께 사용</translation>
    </message>
    <message>
        <source>Paste these settings into the terminal that starts the agent: Claude Code uses the Anthropic lines, OpenAI clients the OpenAI lines. Copy fills in the key.</source>
        <translation>에이전트를 시작하는 터미널에 이 설정을 붙여 넣으세요. Claude Code는 Anthropic 줄을, OpenAI 클라이언트는 OpenAI 줄을 사용합니다. 복사하면 키가 채워집니다.</translation>
    </message>
    <message>
        <source>Copy settings</source>
        <translation>설정 복사</translation>
    </message>
    <message>
        <source>Stop server</source>
        <translation>서버 중지</translation>
    </message>
    <message>
        <source>Stop serving the loaded model; the model stays loaded for the chat</source>
        <translation>로드된 모델의 제공을 중지합니다. 모델은 로드된 채로 남아 채팅에 계속 쓸 수 있습니다</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>닫기</translation>
    </message>
    <message>
        <source>Close this panel; the server goes on serving</source>
        <translation>이 패널을 닫습니다. 서버는 계속 제공합니다</translation>
    </message>
    <message>
        <source>Not running</source>
        <translation>실행 중 아님</translation>
    </message>
    <message>
        <source>Warning: the server listens on all network addresses; anyone who has the key can use it.</source>
        <translation>경고: 서버가 모든 네트워크 주소에서 수신 대기합니다. 키를 가진 누구나 사용할 수 있습니다.</translation>
    </message>
    <message>
        <source>Speculation per request: %1 running; %2 of %3 slots busy.</source>
        <translation>요청별 추측 디코딩: %1 실행 중, 슬롯 %3개 중 %2개 사용 중.</translation>
    </message>
    <message>
        <source>%1: %2 requests, %3 tok/s</source>
        <translation>%1: 요청 %2개, %3 tok/s</translation>
    </message>
    <message>
        <source>(%1x of off)</source>
        <translation>(끔 대비 %1배)</translation>
    </message>
    <message>
        <source>A request may ask for another speculation (tandem.speculation: off, a method or auto); it then runs in a second copy of llama.cpp on the same model file, started on first use and stopped when idle. The model&apos;s weights are shared; each copy adds its own cache.</source>
        <translation>요청은 다른 추측 디코딩을 지정할 수 있습니다(tandem.speculation: off, 방법 이름 또는 auto). 그러면 같은 모델 파일 위의 두 번째 llama.cpp 사본에서 실행되며, 처음 사용할 때 시작되고 유휴 상태가 되면 멈춥니다. 모델 가중치는 공유되며 각 사본은 자체 캐시만큼만 더 사용합니다.</translation>
    </message>
    <message>
        <source>A request did not fit in the context: its prompt has %1 tokens, the context holds %2. Load the model again with a larger context length (Launch… → Context length); agents need 8,192 tokens or more.</source>
        <translation>요청이 컨텍스트에 들어가지 않았습니다. 프롬프트는 %1 토큰인데 컨텍스트는 %2 토큰까지 담습니다. 더 큰 컨텍스트 길이로 모델을 다시 불러오세요(실행… → 컨텍스트 길이). 에이전트에는 8,192 토큰 이상이 필요합니다.</translation>
    </message>
    <message>
        <source>Context: %1 tokens. Claude Code and Codex send 5,000 tokens or more with each request; a request that does not fit is refused and shown here.</source>
        <translation>컨텍스트: %1 토큰. Claude Code와 Codex는 요청마다 5,000 토큰 이상을 보냅니다. 들어가지 않는 요청은 거부되고 여기에 표시됩니다.</translation>
    </message>
    <message>
        <source>OpenAI clients (chat completions, Responses)</source>
        <translation>OpenAI 클라이언트(Chat Completions, Responses)</translation>
    </message>
</context>
<context>
    <name>ServerSwitch</name>
    <message>
        <source>Server: %1</source>
        <extracomment>the switch asked for a start: show the panel once it listens</extracomment>
        <translation>서버: %1</translation>
    </message>
    <message>
        <source>Local server</source>
        <translation>로컬 서버</translation>
    </message>
    <message>
        <source>Show the address, the key and the requests of the running server</source>
        <translation>실행 중인 서버의 주소, 키, 요청을 표시합니다</translation>
    </message>
    <message>
        <source>Serve the loaded model to other programs over OpenAI- and Anthropic-compatible APIs</source>
        <translation>불러온 모델을 OpenAI 및 Anthropic 호환 API로 다른 프로그램에 제공합니다</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>시작 중…</translation>
    </message>
    <message>
        <source>The server could not start: %1</source>
        <translation>서버를 시작할 수 없습니다: %1</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Choose the model cache folder</source>
        <extracomment>the dialog opens this wide where the screen allows (it may be made narrower, down to 680 px)</extracomment>
        <translation>모델 캐시 폴더 선택</translation>
    </message>
    <message>
        <source>Choose a full path for the model cache, such as {example}.</source>
        <translation>모델 캐시에는 {example}처럼 전체 경로를 지정하세요.</translation>
    </message>
    <message>
        <source>The model cache folder cannot be created: {reason}</source>
        <translation>모델 캐시 폴더를 만들 수 없습니다: {reason}</translation>
    </message>
    <message>
        <source>The model cache folder is not writable: {path}</source>
        <translation>모델 캐시 폴더에 쓸 수 없습니다: {path}</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>설정</translation>
    </message>
    <message>
        <source>General</source>
        <translation>일반</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>도구</translation>
    </message>
    <message>
        <source>Model hub</source>
        <translation>모델 허브</translation>
    </message>
    <message>
        <source>Download from</source>
        <translation>다운로드 위치</translation>
    </message>
    <message>
        <source>Hugging Face endpoint</source>
        <translation>Hugging Face 엔드포인트</translation>
    </message>
    <message>
        <source>ModelScope endpoint</source>
        <translation>ModelScope 엔드포인트</translation>
    </message>
    <message>
        <source>Default (leave empty), or a mirror such as https://hf-mirror.com</source>
        <translation>기본값(비워 둠) 또는 https://hf-mirror.com 같은 미러</translation>
    </message>
    <message>
        <source>Default (leave empty), or the address of your own ModelScope server</source>
        <translation>기본값(비워 두기) 또는 자체 ModelScope 서버 주소</translation>
    </message>
    <message>
        <source>Hugging Face token</source>
        <translation>Hugging Face 토큰</translation>
    </message>
    <message>
        <source>ModelScope token</source>
        <translation>ModelScope 토큰</translation>
    </message>
    <message>
        <source>A token is stored in the system keyring; type to replace it</source>
        <translation>시스템 키링에 토큰이 저장되어 있습니다. 입력하면 바뀝니다</translation>
    </message>
    <message>
        <source>Optional; stored in the system keyring</source>
        <translation>선택 사항. 시스템 키링에 저장됩니다</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>제거</translation>
    </message>
    <message>
        <source>Application</source>
        <translation>애플리케이션</translation>
    </message>
    <message>
        <source>Model cache</source>
        <translation>모델 캐시</translation>
    </message>
    <message>
        <source>Default location</source>
        <translation>기본 위치</translation>
    </message>
    <message>
        <source>Tandem&apos;s model entries (links to the downloaded files) go here. The files themselves stay in the Hugging Face or ModelScope cache, shared with other tools, so models already there are found again after a change.</source>
        <translation>Tandem의 모델 항목(다운로드한 파일에 대한 링크)이 여기에 저장됩니다. 파일 자체는 다른 도구와 공유하는 Hugging Face 또는 ModelScope 캐시에 남으므로, 위치를 바꿔도 이미 있는 모델은 다시 찾아집니다.</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>찾아보기…</translation>
    </message>
    <message>
        <source>Default engine</source>
        <translation>기본 엔진</translation>
    </message>
    <message>
        <source>Speculation at start</source>
        <translation>시작 시 추측 디코딩</translation>
    </message>
    <message>
        <source>Auto (measured on this machine)</source>
        <translation>Auto (이 컴퓨터에서 측정)</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>끄기</translation>
    </message>
    <message>
        <source>What the model loaded at start uses. Auto measures each model once on this machine (a few seconds) and keeps speculation only where it pays; Off decodes plainly.</source>
        <translation>시작할 때 불러오는 모델에 쓰는 설정입니다. &apos;Auto&apos;는 이 컴퓨터에서 모델마다 한 번 측정하고(몇 초) 빨라지는 경우에만 추측 디코딩을 유지합니다. &apos;끄기&apos;는 일반 디코딩을 합니다.</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>언어</translation>
    </message>
    <message>
        <source>Learned text</source>
        <translation>학습한 텍스트</translation>
    </message>
    <message>
        <source>Forget learned text</source>
        <translation>학습한 텍스트 지우기</translation>
    </message>
    <message>
        <source>Suffix decoding (MLX) drafts from your earlier questions and answers, kept on this computer only ({tokens} tokens now). Forgetting deletes them; deleting a conversation deletes what it taught.</source>
        <translation>접미사 디코딩(MLX)은 이전 질문과 답변에서 초안을 만들며, 이 내용은 이 컴퓨터에만 보관됩니다(현재 {tokens}개 토큰). 지우면 삭제되고, 대화를 삭제하면 그 대화에서 학습한 내용도 삭제됩니다.</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>시스템 언어</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>모양</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>시스템 설정 따르기</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>밝게</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>어둡게</translation>
    </message>
    <message>
        <source>Light or dark colours; by default they follow the system&apos;s setting</source>
        <translation>밝은 색 또는 어두운 색. 기본값은 시스템 설정을 따릅니다</translation>
    </message>
    <message>
        <source>Local server key</source>
        <translation>로컬 서버 키</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>복사</translation>
    </message>
    <message>
        <source>Reading the key…</source>
        <translation>키를 읽는 중…</translation>
    </message>
    <message>
        <source>Clients send it as the API key. Set by TANDEM_API_KEY for this session.</source>
        <translation>클라이언트가 이 값을 API 키로 보냅니다. 이번 세션에서는 TANDEM_API_KEY로 설정되었습니다.</translation>
    </message>
    <message>
        <source>Clients send it as the API key. Kept in the system keyring.</source>
        <translation>클라이언트가 이 값을 API 키로 보냅니다. 시스템 키링에 보관됩니다.</translation>
    </message>
    <message>
        <source>Clients send it as the API key. No system keyring: a new key is made at each start.</source>
        <translation>클라이언트가 이 값을 API 키로 보냅니다. 시스템 키링이 없어 시작할 때마다 새 키가 만들어집니다.</translation>
    </message>
    <message>
        <source>Clients send it as the API key.</source>
        <translation>클라이언트가 이 값을 API 키로 보냅니다.</translation>
    </message>
</context>
<context>
    <name>SourceDialog</name>
    <message>
        <source>Source</source>
        <translation>출처</translation>
    </message>
    <message>
        <source>The model was given the whole document; its beginning is shown here.</source>
        <translation>모델에는 문서 전체가 주어졌습니다. 여기에는 앞부분을 보여 줍니다.</translation>
    </message>
    <message>
        <source>The model was given this passage with the question.</source>
        <translation>모델에는 질문과 함께 이 구절이 주어졌습니다.</translation>
    </message>
    <message>
        <source>Open the document</source>
        <translation>문서 열기</translation>
    </message>
    <message>
        <source>Open the stored copy of {file} with the system&apos;s viewer</source>
        <translation>저장된 {file} 사본을 시스템 뷰어로 엽니다</translation>
    </message>
</context>
<context>
    <name>SourcesPanel</name>
    <message>
        <source>Sources ({n})</source>
        <translation>출처 ({n})</translation>
    </message>
    <message>
        <source>The documents and passages this answer was given</source>
        <translation>이 답변에 주어진 문서와 구절</translation>
    </message>
</context>
<context>
    <name>SpeculationChoice</name>
    <message>
        <source>last answer: {configuration}</source>
        <extracomment>the configuration that wrote the last answer (&quot;&quot; before one) the offered configurations are switched inside the loaded engine (MLX), not a pool&apos;s Auto routes each answer by its kind (a pool with Auto&apos;s router)</extracomment>
        <translation>마지막 답변: {configuration}</translation>
    </message>
    <message>
        <source>The configuration that wrote this conversation&apos;s last answer (same text, its own speed)</source>
        <translation>이 대화의 마지막 답변을 쓴 구성 (텍스트는 같고 속도만 다릅니다)</translation>
    </message>
    <message>
        <source>Speculation:</source>
        <translation>추측:</translation>
    </message>
    <message>
        <source>Speculative decoding for this conversation&apos;s answers. A change applies from the next answer; the text is the same either way, only the speed changes.</source>
        <translation>이 대화의 답변에 쓰는 추측 디코딩입니다. 변경은 다음 답변부터 적용되며, 텍스트는 같고 속도만 달라집니다.</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>끔</translation>
    </message>
    <message>
        <source>no speculation</source>
        <translation>추측 없음</translation>
    </message>
    <message>
        <source>Chosen per answer by its kind (prose, code, repeat, agent) among the configurations below, by what was measured on this machine</source>
        <translation>답변마다 종류(산문, 코드, 반복, 에이전트)에 따라 이 컴퓨터에서 측정한 결과로 아래 구성 중에서 고릅니다</translation>
    </message>
    <message>
        <source>What the model was loaded with: {running}</source>
        <translation>모델을 로드할 때의 설정: {running}</translation>
    </message>
    <message>
        <source>What the loaded model runs; honoured without a reload</source>
        <translation>로드된 모델이 실행 중인 방법이며, 다시 로드하지 않고 사용할 수 있습니다</translation>
    </message>
    <message>
        <source>Switched per answer inside the loaded engine, on the same weights: no reload</source>
        <translation>로드된 엔진 안에서 답변마다 전환하며 같은 가중치를 씁니다: 다시 로드하지 않습니다</translation>
    </message>
    <message>
        <source>Started beside the loaded model on its first answer, sharing its memory: no reload</source>
        <translation>첫 답변 때 로드된 모델 옆에서 시작하며 그 메모리를 공유합니다: 다시 로드하지 않습니다</translation>
    </message>
    <message>
        <source>Needs a reload with {method}: the loaded engine switches per answer only between {offered}</source>
        <translation>{method}(으)로 다시 로드해야 합니다: 로드된 엔진은 답변마다 {offered} 사이에서만 전환합니다</translation>
    </message>
    <message>
        <source>Needs a reload without speculation: the loaded model runs {running}, which cannot be turned off per answer</source>
        <translation>추측 없이 다시 로드해야 합니다: 로드된 모델은 {running}(으)로 실행 중이며 답변마다 끌 수 없습니다</translation>
    </message>
    <message>
        <source>Needs a reload with {method}: the loaded model runs {running}, and speculation cannot change per answer</source>
        <translation>{method}(으)로 다시 로드해야 합니다: 로드된 모델은 {running}(으)로 실행 중이며 추측은 답변마다 바꿀 수 없습니다</translation>
    </message>
</context>
<context>
    <name>StatsDialog</name>
    <message>
        <source>Answer statistics</source>
        <translation>답변 통계</translation>
    </message>
    <message>
        <source>Decode speed</source>
        <translation>디코딩 속도</translation>
    </message>
    <message>
        <source>{value} tok/s</source>
        <translation>초당 {value} 토큰</translation>
    </message>
    <message>
        <source>Time to first token</source>
        <translation>첫 토큰까지 시간</translation>
    </message>
    <message>
        <source>Total time</source>
        <translation>총 시간</translation>
    </message>
    <message>
        <source>Prompt tokens</source>
        <translation>프롬프트 토큰 수</translation>
    </message>
    <message>
        <source>Completion tokens</source>
        <translation>생성 토큰 수</translation>
    </message>
    <message>
        <source>Rounds</source>
        <translation>라운드 수</translation>
    </message>
    <message>
        <source>Drafted / accepted</source>
        <translation>드래프트 / 수락</translation>
    </message>
    <message>
        <source>Acceptance rate</source>
        <translation>수락률</translation>
    </message>
    <message>
        <source>Mean tokens per drafting round</source>
        <translation>초안 라운드당 평균 토큰 수</translation>
    </message>
    <message>
        <source>Speculation</source>
        <translation>추측</translation>
    </message>
    <message>
        <source>Every configuration on this answer</source>
        <translation>이 답변에서의 각 구성</translation>
    </message>
    <message>
        <source>Depth (drafted)</source>
        <translation>깊이(드래프트)</translation>
    </message>
    <message>
        <source>off</source>
        <translation>끔</translation>
    </message>
    <message>
        <source>Finish reason</source>
        <translation>종료 이유</translation>
    </message>
    <message>
        <source>{ms} ms, including encoding the image</source>
        <translation>{ms} ms(이미지 인코딩 포함)</translation>
    </message>
    <message>
        <source>{ms} ms, including encoding {n} images</source>
        <translation>{ms} ms(이미지 {n}장 인코딩 포함)</translation>
    </message>
    <message>
        <source>Acceptance figures</source>
        <translation>수락 수치</translation>
    </message>
    <message>
        <source>The plain speed is the median of this model&apos;s recent answers without speculation on this machine. Approximate, since the prompts differ; `tandem bench` measures both side by side.</source>
        <translation>일반 속도는 이 컴퓨터에서 이 모델이 추측 디코딩 없이 최근에 생성한 답변의 중앙값입니다. 프롬프트가 다르므로 대략적인 값이며, `tandem bench`로 두 방식을 나란히 측정할 수 있습니다.</translation>
    </message>
    <message>
        <source>Relaunch the model with speculation off and get one answer: Tandem then compares speculative answers with it automatically.</source>
        <translation>추측 디코딩을 끄고 모델을 다시 실행해 답변을 한 번 받으세요. 이후 Tandem이 추측 디코딩 답변과 자동으로 비교합니다.</translation>
    </message>
    <message>
        <source>Round</source>
        <translation>라운드</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>수락</translation>
    </message>
    <message>
        <source>Emitted</source>
        <translation>출력</translation>
    </message>
    <message>
        <source>set by the server</source>
        <translation>서버 설정에 따름</translation>
    </message>
    <message>
        <source>replayed</source>
        <translation>재현</translation>
    </message>
    <message>
        <source>estimated</source>
        <translation>추정</translation>
    </message>
    <message>
        <source>{name}: {ratio} ({tps} tok/s, {basis})</source>
        <translation>{name}: {ratio}({tps} tok/s, {basis})</translation>
    </message>
    <message>
        <source>← answered</source>
        <translation>← 실제로 답변</translation>
    </message>
    <message>
        <source>none (nothing drafted)</source>
        <translation>없음(초안 없음)</translation>
    </message>
    <message>
        <source>Plain decode speed, this prompt</source>
        <translation>일반 디코딩 속도(이 프롬프트)</translation>
    </message>
    <message>
        <source>Speedup vs plain, measured</source>
        <translation>일반 대비 속도 향상(측정됨)</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>측정 안 됨</translation>
    </message>
    <message>
        <source>Plain decode speed</source>
        <translation>일반 디코딩 속도</translation>
    </message>
    <message>
        <source>Speedup vs plain</source>
        <translation>일반 대비 속도 향상</translation>
    </message>
    <message>
        <source>Plain answers measured</source>
        <translation>측정한 일반 답변 수</translation>
    </message>
</context>
<context>
    <name>StatsStrip</name>
    <message>
        <source>Click for per-round details</source>
        <extracomment>where a remote server&apos;s figures come from (&quot;llama.cpp timings&quot;, ...); hidden for local answers why a cut answer stopped (the context is full / Max new tokens); hidden otherwise</extracomment>
        <translation>클릭하면 라운드별 상세 정보 표시</translation>
    </message>
    <message>
        <source>{value} tok/s</source>
        <translation>초당 {value} 토큰</translation>
    </message>
    <message>
        <source>first token {value}</source>
        <translation>첫 토큰 {value}</translation>
    </message>
    <message>
        <source>{n} rounds</source>
        <translation>{n}라운드</translation>
    </message>
    <message>
        <source>Speculation was on ({method}) but proposed no draft for this answer: a model-free method drafts only where the text repeats what it has seen, a drafter only where it is sure enough</source>
        <translation>추측이 켜져 있었지만({method}) 이 답변에서는 초안을 제안하지 않았습니다. 모델 없는 방식은 이미 본 내용이 반복되는 곳에서만, 드래프터는 충분히 확신할 때만 초안을 만듭니다</translation>
    </message>
    <message>
        <source>no speculation</source>
        <translation>추측 없음</translation>
    </message>
    <message>
        <source>{value} accepted</source>
        <translation>수락 {value}</translation>
    </message>
    <message>
        <source>{value} tokens/round</source>
        <translation>라운드당 {value} 토큰</translation>
    </message>
    <message>
        <source>Share of drafted tokens the model accepted</source>
        <translation>모델이 수락한 드래프트 토큰의 비율</translation>
    </message>
    <message>
        <source>Mean tokens emitted per drafting round: the accepted drafts plus the model&apos;s own token, fewer when the answer ended inside the round</source>
        <translation>초안 라운드당 평균 출력 토큰 수: 수락된 초안 토큰에 모델 자체 토큰 하나를 더한 값 (답변이 라운드 도중 끝나면 더 적음)</translation>
    </message>
    <message>
        <source>Tandem has not seen this model answer without speculation on this machine yet. Click Measure to run this prompt without speculation, or get one plain answer of at least {n} tokens: later answers then show the speedup automatically.</source>
        <translation>Tandem은 아직 이 컴퓨터에서 이 모델이 추측 디코딩 없이 답변하는 것을 보지 못했습니다. 측정을 클릭해 이 프롬프트를 추측 디코딩 없이 실행하거나, {n}개 토큰 이상의 일반 답변을 하나 받으세요. 이후 답변에는 속도 향상이 자동으로 표시됩니다.</translation>
    </message>
    <message>
        <source>{value}× vs plain, measured</source>
        <translation>일반 대비 {value}×(측정됨)</translation>
    </message>
    <message>
        <source>Measured: the same prompt without speculation decoded at {plain} tok/s on this machine; this answer at {spec} tok/s.</source>
        <translation>측정됨: 같은 프롬프트를 추측 디코딩 없이 실행하면 이 컴퓨터에서 {plain} tok/s로 디코딩되었고, 이 답변은 {spec} tok/s였습니다.</translation>
    </message>
    <message>
        <source>from {source}</source>
        <translation>출처: {source}</translation>
    </message>
    <message>
        <source>This answer against the same {n} tokens decoded without speculation, one plain step of the model per token, set against this answer&apos;s decode time.</source>
        <translation>이 답변을 같은 {n}개 토큰을 투기 없이 디코딩한 경우와 비교합니다. 토큰마다 모델의 일반 단계 한 번으로 계산해 이 답변의 디코딩 시간과 견줍니다.</translation>
    </message>
    <message>
        <source>The plain step was measured during this answer, in its rounds that drafted nothing: another program&apos;s load moves both sides alike.</source>
        <translation>일반 단계는 이 답변 안에서 초안이 없던 라운드에서 측정했습니다. 다른 프로그램의 부하는 양쪽에 똑같이 작용합니다.</translation>
    </message>
    <message>
        <source>Each round is priced by what a round of this configuration and depth costs in plain steps on this machine, learned from earlier answers: another program&apos;s load does not move the figure.</source>
        <translation>각 라운드는 이 구성과 깊이의 라운드가 이 컴퓨터에서 일반 단계 몇 번에 해당하는지(이전 답변에서 학습)로 계산합니다. 다른 프로그램의 부하로 이 수치가 바뀌지 않습니다.</translation>
    </message>
    <message>
        <source>The plain step is the model&apos;s, measured in answers a moment before (this configuration&apos;s rounds are not priced yet).</source>
        <translation>일반 단계는 조금 전 답변에서 측정한 모델의 값입니다(이 구성의 라운드는 아직 계산되지 않았습니다).</translation>
    </message>
    <message>
        <source>Includes encoding the image</source>
        <translation>이미지 인코딩 포함</translation>
    </message>
    <message>
        <source>Includes encoding the {n} images</source>
        <translation>이미지 {n}장 인코딩 포함</translation>
    </message>
    <message>
        <source>Passes of the model for this answer: {drafting} verified a draft, {plain} gave one token without one</source>
        <translation>이 답변에서 모델이 실행된 횟수: {drafting}회는 초안을 검증했고, {plain}회는 초안 없이 토큰 하나를 생성</translation>
    </message>
    <message>
        <source>nothing drafted</source>
        <translation>초안 없음</translation>
    </message>
    <message>
        <source>{share} of the answer drafted, {value} accepted</source>
        <translation>답변의 {share}가 초안에서 옴, 수락 {value}</translation>
    </message>
    <message>
        <source>{share} of the answer&apos;s tokens came from accepted drafts: for a model-free method, text it copied from the conversation and its documents</source>
        <translation>답변 토큰의 {share}가 수락된 초안에서 왔습니다. 모델 없는 방식에서는 대화와 그 문서에서 복사한 텍스트입니다</translation>
    </message>
    <message>
        <source>Per round: bar height = the depth drafted in that round, green = accepted</source>
        <translation>라운드별: 막대 높이 = 그 라운드의 드래프트 깊이, 초록 = 수락됨</translation>
    </message>
    <message>
        <source>Measuring…</source>
        <translation>측정 중…</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>측정</translation>
    </message>
    <message>
        <source>Run this prompt again without speculation (same settings, on a plain copy of the model loaded for the measurement) and show the direct speedup of this answer</source>
        <translation>추측 디코딩 없이 이 프롬프트를 다시 실행하고(같은 설정, 측정을 위해 불러온 모델의 일반 사본에서) 이 답변의 직접 속도 향상을 표시합니다</translation>
    </message>
    <message>
        <source>This answer drafted nothing: every token was decoded as without speculation, so it claims no speedup.</source>
        <translation>이 답변에는 초안이 없었습니다. 모든 토큰이 투기 없이와 같이 디코딩되었으므로 속도 향상을 주장하지 않습니다.</translation>
    </message>
    <message>
        <source>speedup: not measured</source>
        <translation>속도 향상: 측정 안 됨</translation>
    </message>
    <message>
        <source>{value}× vs plain</source>
        <translation>일반 대비 {value}×</translation>
    </message>
    <message>
        <source>Decode speed compared with this model without speculation on this machine: {baseline} tok/s, the median of its recent plain answers (samples: {n}). Approximate, since the prompts differ; `tandem bench` measures both side by side.</source>
        <translation>이 컴퓨터에서 추측 디코딩 없이 실행한 이 모델과 디코딩 속도를 비교합니다: {baseline} tok/s (최근 일반 답변의 중앙값, 표본 수: {n}). 프롬프트가 다르므로 대략적인 값이며, `tandem bench`로 두 방식을 나란히 측정할 수 있습니다.</translation>
    </message>
    <message>
        <source>Speculation is slower than plain decoding here: try fewer draft tokens per round, or launch the model without speculation.</source>
        <translation>여기서는 추측 디코딩이 일반 디코딩보다 느립니다. 라운드당 드래프트 토큰 수를 줄이거나 추측 디코딩 없이 모델을 실행해 보세요.</translation>
    </message>
</context>
<context>
    <name>Thumbnail</name>
    <message>
        <source>Click to enlarge</source>
        <translation>클릭하여 확대</translation>
    </message>
    <message>
        <source>Remove this image</source>
        <translation>이 이미지 제거</translation>
    </message>
</context>
<context>
    <name>ToolCallBlock</name>
    <message>
        <source>Tool call: {name}</source>
        <extracomment>what a block can say of its call: waiting for the user, running, or how it ended the one line of a call that did not go well (&quot;&quot; otherwise; the answer shows it)</extracomment>
        <translation>도구 호출: {name}</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>승인</translation>
    </message>
    <message>
        <source>Run this call once</source>
        <translation>이 호출을 한 번 실행합니다</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>거부</translation>
    </message>
    <message>
        <source>Do not run it; the answer ends here</source>
        <translation>실행하지 않습니다. 답변은 여기서 끝납니다</translation>
    </message>
    <message>
        <source>Always allow</source>
        <translation>항상 허용</translation>
    </message>
    <message>
        <source>Run it, and run this tool without asking from now on</source>
        <translation>실행하고, 앞으로 이 도구는 묻지 않고 실행합니다</translation>
    </message>
    <message>
        <source>Waiting for your approval.</source>
        <translation>승인을 기다리는 중입니다.</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>실행 중…</translation>
    </message>
    <message>
        <source>Ran; its result is below.</source>
        <translation>실행했습니다. 결과는 아래에 있습니다.</translation>
    </message>
</context>
<context>
    <name>ToolsPage</name>
    <message>
        <source>The tool servers could not be started</source>
        <translation>도구 서버를 시작할 수 없습니다</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>시작 중</translation>
    </message>
    <message>
        <source>running</source>
        <translation>실행 중</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>중지됨</translation>
    </message>
    <message>
        <source>off</source>
        <translation>꺼짐</translation>
    </message>
    <message>
        <source>failed: {reason}</source>
        <translation>실패: {reason}</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>끔</translation>
    </message>
    <message>
        <source>Ask every time</source>
        <translation>매번 묻기</translation>
    </message>
    <message>
        <source>Always allow</source>
        <translation>항상 허용</translation>
    </message>
    <message>
        <source>Never offered to the model</source>
        <translation>모델에 제공하지 않음</translation>
    </message>
    <message>
        <source>Each call waits for your approval</source>
        <translation>호출할 때마다 승인을 기다립니다</translation>
    </message>
    <message>
        <source>Calls run without asking</source>
        <translation>묻지 않고 호출을 실행합니다</translation>
    </message>
    <message>
        <source>Import mcpServers JSON</source>
        <translation>mcpServers JSON 가져오기</translation>
    </message>
    <message>
        <source>JSON files (*.json);;All files (*)</source>
        <translation>JSON 파일 (*.json);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Export mcpServers JSON</source>
        <translation>mcpServers JSON 내보내기</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON 파일 (*.json)</translation>
    </message>
    <message>
        <source>Exported to {path}.</source>
        <translation>{path}(으)로 내보냈습니다.</translation>
    </message>
    <message>
        <source>Left empty: {names}.</source>
        <translation>비워 둠: {names}.</translation>
    </message>
    <message>
        <source>MCP servers whose tools the model may call in the chat, each call with your approval unless its rule is Always allow; a tool that is Off is never offered to the model. Changes are saved at once; secrets go to the keyring.</source>
        <translation>채팅에서 모델이 도구를 호출할 수 있는 MCP 서버입니다. 규칙이 항상 허용이 아니면 호출할 때마다 승인이 필요하며, 끔으로 설정한 도구는 모델에 제공되지 않습니다. 변경 사항은 바로 저장되고 비밀 값은 키링에 보관됩니다.</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>사용</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>설명</translation>
    </message>
    <message>
        <source>Server / tool</source>
        <translation>서버 / 도구</translation>
    </message>
    <message>
        <source>State</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Import mcpServers JSON…</source>
        <translation>mcpServers JSON 가져오기…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>내보내기…</translation>
    </message>
    <message>
        <source>Add server…</source>
        <translation>서버 추가…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>제거</translation>
    </message>
</context>
<context>
    <name>VerifyDialog</name>
    <message>
        <source>The check could not run</source>
        <extracomment>the prompts done so far in a running check, shown as they come</extracomment>
        <translation>검증을 실행할 수 없습니다</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>중지하는 중…</translation>
    </message>
    <message>
        <source>Baseline: {message}</source>
        <translation>기준선: {message}</translation>
    </message>
    <message>
        <source>Endpoint: {message}</source>
        <translation>엔드포인트: {message}</translation>
    </message>
    <message>
        <source>Prose</source>
        <translation>산문</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>코드</translation>
    </message>
    <message>
        <source>Chinese</source>
        <translation>중국어</translation>
    </message>
    <message>
        <source>List</source>
        <translation>목록</translation>
    </message>
    <message>
        <source>Arithmetic</source>
        <translation>산술</translation>
    </message>
    <message>
        <source>Prompt {i} of {n} ({kind}): the baseline answers, then the endpoint…</source>
        <translation>프롬프트 {i}/{n}({kind}): 기준선이 답한 뒤 엔드포인트가 답합니다…</translation>
    </message>
    <message>
        <source>Connecting to both servers…</source>
        <translation>두 서버에 연결하는 중…</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>중지했습니다.</translation>
    </message>
    <message>
        <source>EXACT: the endpoint&apos;s answers match the baseline&apos;s on all {n} prompts.</source>
        <translation>EXACT: 프롬프트 {n}개 모두에서 엔드포인트의 답변이 기준선과 일치합니다.</translation>
    </message>
    <message>
        <source>TOP_K_MATCH: {k} of {n} prompts differ at a near-tie (each token among the other side&apos;s top candidates), the others match exactly.</source>
        <translation>TOP_K_MATCH: 프롬프트 {n}개 중 {k}개가 거의 동점인 위치에서 다릅니다(양쪽 토큰이 서로의 상위 후보에 있음). 나머지는 정확히 일치합니다.</translation>
    </message>
    <message>
        <source>FAIL: {k} of {n} prompts diverge from the baseline. Check that both servers run the same model file and settings; if they do, the drafter changes the output.</source>
        <translation>FAIL: 프롬프트 {n}개 중 {k}개가 기준선과 다릅니다. 두 서버가 같은 모델 파일과 설정으로 실행 중인지 확인하세요. 같다면 드래프터가 출력을 바꾸고 있습니다.</translation>
    </message>
    <message>
        <source>The baseline reported drafted tokens: it should run without a drafter, or this check compares two speculative servers.</source>
        <translation>기준선이 드래프트 토큰을 보고했습니다. 드래프터 없이 실행해야 하며, 그렇지 않으면 이 검증은 추측 디코딩 서버 두 대를 비교하게 됩니다.</translation>
    </message>
    <message>
        <source>The endpoint does not report acceptance, so Tandem cannot tell whether it drafted.</source>
        <translation>엔드포인트가 수락률을 보고하지 않아 Tandem은 드래프트했는지 알 수 없습니다.</translation>
    </message>
    <message>
        <source>The endpoint reported no drafted tokens: it seems to run without a drafter, so this check compared two plain servers.</source>
        <translation>엔드포인트가 드래프트 토큰을 보고하지 않았습니다. 드래프터 없이 실행 중인 것으로 보여, 이 검증은 일반 서버 두 대를 비교했습니다.</translation>
    </message>
    <message>
        <source>not reported</source>
        <translation>보고되지 않음</translation>
    </message>
    <message>
        <source>The endpoint drafted {drafted} tokens and {accepted} were accepted ({source}).</source>
        <translation>엔드포인트가 토큰 {drafted}개를 드래프트했고 {accepted}개가 수락되었습니다({source}).</translation>
    </message>
    <message>
        <source>(the baseline&apos;s answer ended)</source>
        <translation>(기준선의 답변이 끝남)</translation>
    </message>
    <message>
        <source>EXACT: the same text ({n} tokens)</source>
        <translation>EXACT: 같은 텍스트(토큰 {n}개)</translation>
    </message>
    <message>
        <source>EXACT: the same {n} tokens</source>
        <translation>EXACT: 같은 토큰 {n}개</translation>
    </message>
    <message>
        <source>TOP_K_MATCH at token {pos}: baseline {off}, endpoint {on}; log-probability gap {gap}</source>
        <translation>TOP_K_MATCH(토큰 {pos}): 기준선 {off}, 엔드포인트 {on}, 로그 확률 차이 {gap}</translation>
    </message>
    <message>
        <source>FAIL at token {pos}: baseline {off}, endpoint {on} (text compared: the server gave no token ids)</source>
        <translation>FAIL(토큰 {pos}): 기준선 {off}, 엔드포인트 {on}(텍스트로 비교: 서버가 토큰 ID를 주지 않음)</translation>
    </message>
    <message>
        <source>(the endpoint&apos;s answer ended)</source>
        <translation>(엔드포인트의 답변이 끝남)</translation>
    </message>
    <message>
        <source>not known</source>
        <translation>알 수 없음</translation>
    </message>
    <message>
        <source>FAIL at token {pos}: baseline {off} (log-probability {off_lp}), endpoint {on} (log-probability {on_lp} at the baseline)</source>
        <translation>FAIL(토큰 {pos}): 기준선 {off}(로그 확률 {off_lp}), 엔드포인트 {on}(기준선에서의 로그 확률 {on_lp})</translation>
    </message>
    <message>
        <source>Model: {model}</source>
        <translation>모델: {model}</translation>
    </message>
    <message>
        <source>Text compared: the servers gave no token ids.</source>
        <translation>텍스트로 비교했습니다: 서버가 토큰 ID를 주지 않았습니다.</translation>
    </message>
    <message>
        <source>Verify the drafter&apos;s output</source>
        <translation>드래프터 출력 검증</translation>
    </message>
    <message>
        <source>Greedy answers of {endpoint} (with its drafter) compared with {baseline} (the same model without a drafter): {n} prompts of different kinds, up to {max} tokens each. Speculative decoding must not change greedy output.</source>
        <translation>{endpoint}(드래프터 사용)와 {baseline}(같은 모델, 드래프터 없음)의 그리디 답변을 비교합니다. 종류가 다른 프롬프트 {n}개, 각각 최대 {max} 토큰. 추측 디코딩은 그리디 출력을 바꾸면 안 됩니다.</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>중지</translation>
    </message>
    <message>
        <source>Run again</source>
        <translation>다시 실행</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>닫기</translation>
    </message>
</context>
<context>
    <name>_SourceRow</name>
    <message>
        <source>Show this passage</source>
        <translation>이 구절 보기</translation>
    </message>
</context>
</TS>
