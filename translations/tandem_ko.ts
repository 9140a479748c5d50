<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko">
    <context>
        <name>BrowserPage</name>
        <message>
            <source>This entry is invalid and was skipped: {reason}</source>
            <translation>이 항목은 유효하지 않아 건너뛰었습니다: {reason}</translation>
        </message>
        <message>
            <source>Models</source>
            <translation>모델</translation>
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
        <name>ChatController</name>
        <message>
            <source>New chat</source>
            <translation>새 대화</translation>
        </message>
        <message>
            <source>No model loaded</source>
            <translation>모델 없음</translation>
        </message>
        <message>
            <source>No model is loaded.</source>
            <translation>불러온 모델이 없습니다.</translation>
        </message>
        <message>
            <source>Load a model from the Models page, then send again.</source>
            <translation>'모델' 페이지에서 모델을 불러온 뒤 다시 보내세요.</translation>
        </message>
        <message>
            <source>The answer could not be generated</source>
            <translation>답변을 생성하지 못했습니다</translation>
        </message>
    </context>
    <context>
        <name>ChatView</name>
        <message>
            <source>Highlight drafted tokens</source>
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
    </context>
    <context>
        <name>Composer</name>
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
    </context>
    <context>
        <name>DeleteDialog</name>
        <message>
            <source>Also deletes the model and drafter files from the {hub} cache, unless another Tandem model still uses them. Other tools that share this cache (the hf command, Python scripts, other apps) lose these files and must download them again.</source>
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
            <source>Tandem's entry for this model and its drafter is removed. The downloaded files stay in the {hub} cache, where other tools can still use them.</source>
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
            <source>Also free disk space</source>
            <translation>디스크 공간도 확보</translation>
        </message>
    </context>
    <context>
        <name>DepthField</name>
        <message>
            <source>Enter a whole number greater than zero, or leave it empty.</source>
            <extracomment>(role, quantization) pairs not downloaded yet; the caller queues them before loading.</extracomment>
            <translation>0보다 큰 정수를 입력하거나 비워 두세요.</translation>
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
            <translation>아직 다운로드가 없습니다. '모델' 페이지에서 모델을 고른 뒤 '다운로드'를 누르세요.</translation>
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
        <name>EngineLoader</name>
        <message>
            <source>Locating model files</source>
            <translation>모델 파일을 찾는 중</translation>
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
            <translation>위에 나온 패키지를 설치한 뒤 Tandem을 다시 시작하세요.</translation>
        </message>
        <message>
            <source>Check the model entry; the message names the field to fix.</source>
            <translation>모델 항목을 확인하세요. 메시지에 고쳐야 할 필드가 나와 있습니다.</translation>
        </message>
        <message>
            <source>Check free disk space and permissions, then retry.</source>
            <translation>디스크 여유 공간과 권한을 확인한 뒤 다시 시도하세요.</translation>
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
        <name>LaunchDialog</name>
        <message>
            <source>This engine is not available here: {reason}</source>
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
            <source>{quant} (cached)</source>
            <translation>{quant} (캐시됨)</translation>
        </message>
        <message>
            <source>{quant} (partial)</source>
            <translation>{quant} (일부)</translation>
        </message>
        <message>
            <source>engine default: {value}</source>
            <translation>엔진 기본값 {value}</translation>
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
            <source>On MLX this is the drafter's block size minus the verified token; empty uses the depth the drafter was trained for.</source>
            <translation>MLX에서는 드래프트 모델의 블록 크기에서 검증된 토큰을 뺀 값입니다. 비워 두면 드래프트 모델이 학습된 깊이를 사용합니다.</translation>
        </message>
        <message>
            <source>On llama.cpp n-gram methods this is the longest draft taken from earlier text in a round.</source>
            <translation>llama.cpp n-gram 방식에서는 한 라운드에 이전 텍스트에서 가져오는 가장 긴 초안입니다.</translation>
        </message>
        <message>
            <source>On llama.cpp this is the drafter's maximum draft length (draft.n_max); a round may draft fewer when the drafter is unsure.</source>
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
            <source>the drafter's trained depth</source>
            <translation>드래프트 모델이 학습된 깊이</translation>
        </message>
        <message>
            <source>llama.cpp's own default</source>
            <translation>llama.cpp 자체 기본값</translation>
        </message>
        <message>
            <source>Launch {name}</source>
            <translation>{name} 실행</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>모델</translation>
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
            <source>Only engines that can run this model's format are listed.</source>
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
            <source>Runs a small drafter beside the model. The drafter proposes several tokens per round and the model verifies them in one pass: the answer is identical, decoding is faster. Turning this on downloads an extra drafter checkpoint.</source>
            <translation>모델 옆에서 작은 드래프트 모델을 실행합니다. 드래프트 모델이 라운드마다 여러 토큰을 제안하고 모델이 한 번에 검증합니다. 답변은 동일하고 디코딩은 빨라집니다. 켜면 드래프트 모델 체크포인트를 추가로 다운로드합니다.</translation>
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
            <source>Launch</source>
            <translation>실행</translation>
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
            <source>New chat</source>
            <translation>새 대화</translation>
        </message>
        <message>
            <source>Rename</source>
            <translation>이름 바꾸기</translation>
        </message>
        <message>
            <source>Delete conversation</source>
            <translation>대화 삭제</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>취소</translation>
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
            <source>Downloading; the model loads when the download finishes.</source>
            <translation>다운로드 중입니다. 완료되면 모델을 불러옵니다.</translation>
        </message>
        <message>
            <source>Loading {name}…</source>
            <translation>{name} 불러오는 중…</translation>
        </message>
        <message>
            <source>The default model is not available</source>
            <translation>기본 모델을 사용할 수 없습니다</translation>
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
            <source>Loading cancelled</source>
            <translation>불러오기 취소됨</translation>
        </message>
        <message>
            <source>The download could not be queued</source>
            <translation>다운로드를 대기열에 넣지 못했습니다</translation>
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
            <source>Check the network and the hub settings, then press Retry.</source>
            <translation>네트워크와 허브 설정을 확인한 뒤 '다시 시도'를 누르세요.</translation>
        </message>
        <message>
            <source>The files could not be deleted</source>
            <translation>파일을 삭제하지 못했습니다</translation>
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
        <message>
            <source>Settings could not be saved</source>
            <translation>설정을 저장하지 못했습니다</translation>
        </message>
    </context>
    <context>
        <name>MessageBubble</name>
        <message>
            <source>You</source>
            <translation>나</translation>
        </message>
        <message>
            <source>Assistant</source>
            <translation>어시스턴트</translation>
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
            <source>Copy</source>
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
        <name>RegistryModel</name>
        <message>
            <source>Downloaded</source>
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
            <source>Has a drafter for speculative decoding</source>
            <translation>추측 디코딩용 드래프트 모델 있음</translation>
        </message>
        <message>
            <source>No drafter</source>
            <translation>드래프트 모델 없음</translation>
        </message>
        <message>
            <source>invalid</source>
            <translation>유효하지 않음</translation>
        </message>
        <message>
            <source>Variant</source>
            <extracomment>Size buckets offered by the filter (billions of parameters, half-open ranges).</extracomment>
            <translation>변형</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>상태</translation>
        </message>
        <message>
            <source>A small model that proposes tokens for this one to verify; used by speculative decoding.</source>
            <translation>이 모델이 검증할 토큰을 제안하는 작은 모델로, 추측 디코딩에 사용됩니다.</translation>
        </message>
        <message>
            <source>with drafter</source>
            <translation>드래프트 포함</translation>
        </message>
        <message>
            <source>Drafter quantizations</source>
            <translation>드래프트 모델 양자화</translation>
        </message>
        <message>
            <source>Model quantizations</source>
            <translation>모델 양자화</translation>
        </message>
        <message>
            <source>default</source>
            <translation>기본</translation>
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
        <name>SettingsDialog</name>
        <message>
            <source>Choose the model cache folder</source>
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
            <source>Tandem's model entries (links to the downloaded files) go here. The files themselves stay in the Hugging Face or ModelScope cache, shared with other tools, so models already there are found again after a change.</source>
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
            <source>Language</source>
            <translation>언어</translation>
        </message>
        <message>
            <source>System language</source>
            <translation>시스템 언어</translation>
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
            <source>Mean tokens per round</source>
            <translation>라운드당 평균 토큰 수</translation>
        </message>
        <message>
            <source>Speculation</source>
            <translation>추측</translation>
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
            <source>The plain speed is the median of this model's recent answers without speculation on this machine. Approximate, since the prompts differ; `tandem bench` measures both side by side.</source>
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
            <source>Drafted</source>
            <translation>드래프트</translation>
        </message>
        <message>
            <source>Accepted</source>
            <translation>수락</translation>
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
            <extracomment>a speedup inside [SLOWER, FASTER] is "about the same"; below SLOWER the strip warns</extracomment>
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
            <source>Tokens produced per verification round: accepted drafts plus one</source>
            <translation>검증 라운드당 생성된 토큰 수: 수락된 드래프트 + 1</translation>
        </message>
        <message>
            <source>Per-round acceptance: grey = drafted, green = accepted</source>
            <translation>라운드별 수락: 회색 = 드래프트, 초록 = 수락</translation>
        </message>
        <message>
            <source>speedup: not measured</source>
            <translation>속도 향상: 측정 안 됨</translation>
        </message>
        <message>
            <source>Tandem has not seen this model answer without speculation on this machine yet. Relaunch the model with speculation off and get one answer of at least {n} tokens, then load it with speculation again: later answers show the speedup automatically.</source>
            <translation>Tandem은 이 컴퓨터에서 이 모델이 추측 디코딩 없이 답변한 기록이 아직 없습니다. 추측 디코딩을 끄고 모델을 다시 실행해 {n}토큰 이상의 답변을 한 번 받은 뒤, 추측 디코딩을 켜고 다시 불러오세요. 이후 답변에 속도 향상이 자동으로 표시됩니다.</translation>
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
</TS>
