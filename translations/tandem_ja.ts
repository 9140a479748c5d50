<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja">
<context>
    <name>AcceptanceFigures</name>
    <message>
        <source>llama.cpp timings</source>
        <translation>llama.cpp の timings</translation>
    </message>
    <message>
        <source>vLLM per-request metrics</source>
        <translation>vLLM のリクエスト別メトリクス</translation>
    </message>
    <message>
        <source>vLLM /metrics counters</source>
        <translation>vLLM /metrics カウンター</translation>
    </message>
    <message>
        <source>this server does not report acceptance</source>
        <translation>このサーバーは受理率を報告しません</translation>
    </message>
    <message>
        <source>The counters are server-wide, read before and after this request: other requests running on the server at the same time are counted too.</source>
        <extracomment>the notes :mod:`app.core.engines.remote.acceptance` writes (an unknown one is shown as written)</extracomment>
        <translation>カウンターはサーバー全体のもので、このリクエストの前後に読み取ります。同時にサーバーで実行された他のリクエストも数えられます。</translation>
    </message>
    <message>
        <source>Accepted tokens are the completion tokens minus the verification passes; the server does not report how many tokens were drafted.</source>
        <translation>受理トークン数は生成トークン数から検証パス数を引いたものです。サーバーはドラフトしたトークン数を報告しません。</translation>
    </message>
    <message>
        <source>The server sent no drafting figures with this answer, so Tandem shows none: it may run without a drafter, or be a kind of server that does not report them.</source>
        <translation>サーバーはこの回答にドラフトの数値を付けなかったため、Tandem は何も表示しません。ドラフターなしで動作しているか、数値を報告しない種類のサーバーです。</translation>
    </message>
    <message>
        <source>As the server reported them: {source}.</source>
        <translation>サーバーが報告した値：{source}。</translation>
    </message>
    <message>
        <source>{n} draft tokens accepted (drafted not reported)</source>
        <translation>ドラフトトークン {n} 個を受理（ドラフト数は未報告）</translation>
    </message>
    <message>
        <source>not reported</source>
        <translation>未報告</translation>
    </message>
</context>
<context>
    <name>AddServerDialog</name>
    <message>
        <source>Add an MCP server</source>
        <extracomment>the tree&apos;s columns</extracomment>
        <translation>MCP サーバーを追加</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <source>Command or URL</source>
        <translation>コマンドまたは URL</translation>
    </message>
    <message>
        <source>npx -y @modelcontextprotocol/server-filesystem ~/notes</source>
        <translation>例: npx -y @modelcontextprotocol/server-filesystem ~/notes</translation>
    </message>
</context>
<context>
    <name>AnswerEnding</name>
    <message>
        <source>context full</source>
        <translation>コンテキストが満杯</translation>
    </message>
    <message>
        <source>The answer stopped at the end of the model&apos;s context: the conversation and this answer take {used} tokens, before Max new tokens ({max}) was reached. Start a new chat, or load the model with a larger context length.</source>
        <translation>回答はモデルのコンテキストの終わりで止まりました。会話とこの回答で {used} トークンを使い、最大生成トークン数（{max}）には達していません。新しいチャットを始めるか、より大きいコンテキスト長でモデルを読み込んでください。</translation>
    </message>
    <message>
        <source>Max new tokens reached</source>
        <translation>最大生成トークン数に到達</translation>
    </message>
    <message>
        <source>The answer stopped at Max new tokens ({max}). Raise it in the conversation settings, or ask the model to go on.</source>
        <translation>回答は最大生成トークン数（{max}）で止まりました。会話の設定で上げるか、モデルに続きを頼んでください。</translation>
    </message>
    <message>
        <source>length limit reached</source>
        <translation>長さの上限に到達</translation>
    </message>
    <message>
        <source>The answer stopped at Max new tokens or at the end of the model&apos;s context.</source>
        <translation>回答は最大生成トークン数、またはモデルのコンテキストの終わりで止まりました。</translation>
    </message>
    <message>
        <source>the model ended its answer</source>
        <translation>モデルが回答を終えました</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>停止しました</translation>
    </message>
    <message>
        <source>an error stopped it</source>
        <translation>エラーで停止しました</translation>
    </message>
</context>
<context>
    <name>Attachments</name>
    <message>
        <source>the file is empty</source>
        <extracomment>the longest side of a thumbnail in a message and in the composer</extracomment>
        <translation>ファイルが空です</translation>
    </message>
    <message>
        <source>the image is {mb:.1f} MB; the limit is {limit} MB (save it smaller or as JPEG)</source>
        <translation>画像は {mb:.1f} MB です。上限は {limit} MB です（小さくするか JPEG で保存してください）</translation>
    </message>
    <message>
        <source>SVG drawings are not supported; export it as PNG or JPEG and attach that</source>
        <translation>SVG 図形には対応していません。PNG か JPEG に書き出して添付してください</translation>
    </message>
    <message>
        <source>{fmt} images are not supported; use PNG, JPEG, WebP, GIF or BMP</source>
        <translation>{fmt} 画像には対応していません。PNG、JPEG、WebP、GIF、BMP を使ってください</translation>
    </message>
    <message>
        <source>the image has more than {limit} megapixels; scale it down and attach it again</source>
        <translation>画像が {limit} メガピクセルを超えています。縮小して添付し直してください</translation>
    </message>
    <message>
        <source>this is not an image Tandem can read (PNG, JPEG, WebP, GIF or BMP)</source>
        <translation>Tandem が読める画像ではありません（PNG、JPEG、WebP、GIF、BMP）</translation>
    </message>
    <message>
        <source>the image is damaged or cut short</source>
        <translation>画像が壊れているか途中で切れています</translation>
    </message>
    <message>
        <source>the file cannot be read</source>
        <translation>ファイルを読み込めません</translation>
    </message>
    <message>
        <source>the image cannot be saved; free some disk space and send again</source>
        <translation>画像を保存できません。ディスクの空きを増やしてから送り直してください</translation>
    </message>
</context>
<context>
    <name>AutoPanel</name>
    <message>
        <source>Checking for a stored measurement…</source>
        <translation>保存済みの測定結果を確認しています…</translation>
    </message>
    <message>
        <source>Measuring which speculation pays on this machine…</source>
        <translation>このマシンでどの投機的デコードが得かを測定しています…</translation>
    </message>
    <message>
        <source>Auto chose: {config}</source>
        <translation>Auto の選択: {config}</translation>
    </message>
    <message>
        <source>Measured in {seconds:.0f} s; stored in {path}</source>
        <translation>{seconds:.0f} 秒で測定、{path} に保存</translation>
    </message>
    <message>
        <source>Auto could not measure: {reason}</source>
        <translation>Auto は測定できませんでした: {reason}</translation>
    </message>
    <message>
        <source>The measurement was cancelled; nothing was stored.</source>
        <translation>測定はキャンセルされ、何も保存されていません。</translation>
    </message>
    <message>
        <source>Learned from your answers: {routes}</source>
        <translation>あなたの回答から学んだこと：{routes}</translation>
    </message>
    <message>
        <source>{config} within {error}% ({answers} answers)</source>
        <translation>{config}：誤差 {error}%（回答 {answers} 件）</translation>
    </message>
    <message>
        <source>Predictions against your answers: {rows}</source>
        <translation>予測と実際の回答の差：{rows}</translation>
    </message>
    <message>
        <source>After every answer Tandem predicts what each configuration would have done on it, from its drafts replayed over the answer and what each pass costs on this machine. The configuration that answered is predicted too: this is the median gap between that prediction and the speed the answer measured.</source>
        <translation>Tandem は回答のたびに、各構成がその回答でどうだったかを予測します。回答の上で再生した下書きと、このマシンでの各パスのコストに基づきます。回答した構成自身も予測されます。ここに示すのは、その予測と回答の実測速度との差の中央値です。</translation>
    </message>
    <message>
        <source>prose</source>
        <translation>文章</translation>
    </message>
    <message>
        <source>code edit</source>
        <translation>コード編集</translation>
    </message>
    <message>
        <source>repeat</source>
        <translation>繰り返し</translation>
    </message>
    <message>
        <source>agent turn</source>
        <translation>エージェントのターン</translation>
    </message>
    <message>
        <source>document question</source>
        <translation>文書についての質問</translation>
    </message>
    <message>
        <source>{measured}, for {kinds}</source>
        <translation>{measured}、{kinds}に使用</translation>
    </message>
    <message>
        <source>{measured}, not used</source>
        <translation>{measured}、不採用</translation>
    </message>
    <message>
        <source>off: nothing was faster than plain decoding beyond the measured noise</source>
        <translation>オフ：測定したばらつきを超えて通常のデコードより速い構成はありませんでした</translation>
    </message>
    <message>
        <source>off: no configuration was faster without being slower on prose</source>
        <translation>オフ：文章で遅くならずに速くなる構成はありませんでした</translation>
    </message>
    <message>
        <source>Auto: measure and use what pays on this machine</source>
        <translation>Auto: 測定して、このマシンで得になる方式を使う</translation>
    </message>
    <message>
        <source>Auto compares speculation off with the drafter at a few depths and the engine&apos;s model-free methods on short fixed prompts, once per model, drafter, engine and machine, and keeps the fastest that is never slower on prose; configurations within the measured noise of each other are a tie, and a tie goes to the cheaper one. It measures in the background while you are idle and answers meanwhile with its best guess; a choice that loses on your answers is dropped. Choosing a drafter or a model-free method yourself turns Auto off.</source>
        <translation>Auto は短い固定プロンプトで、投機的デコードのオフと、いくつかの深さのドラフターおよびエンジンのモデル不要の方法を比較し（モデル、ドラフター、エンジン、マシンごとに一度）、散文で決して遅くならない最速の構成を採用します。測定したばらつきの範囲内にある構成同士は同等とみなし、同等ならコストの低い方を選びます。アイドル中にバックグラウンドで測定し、その間は最善の推測で応答します。実際の回答で負けた選択は外されます。ドラフターやモデル不要の方法を自分で選ぶと Auto はオフになります。</translation>
    </message>
    <message>
        <source>Re-measure</source>
        <extracomment>what Auto learned from real answers, per kind how far the cost model&apos;s predictions were from the answers&apos; measured speed, per configuration: (median |predicted / measured - 1|, answers)</extracomment>
        <translation>再測定</translation>
    </message>
    <message>
        <source>Measure now</source>
        <translation>今すぐ測定</translation>
    </message>
    <message>
        <source>Auto chooses once the settings below can launch: see the message there.</source>
        <translation>下の設定で起動できるようになると Auto が選びます。そこのメッセージを見てください。</translation>
    </message>
    <message>
        <source>Not measured yet: once the model is downloaded, Auto answers at once and measures in the background while you are idle.</source>
        <translation>未測定：モデルのダウンロード後、Auto はすぐに回答し、操作していない間にバックグラウンドで測定します。</translation>
    </message>
    <message>
        <source>Not measured yet: Auto answers with {config} at once and measures in the background while you are idle (about {seconds} s).</source>
        <translation>未測定：Auto はまず {config} ですぐに回答し、操作していない間にバックグラウンドで測定します（約 {seconds} 秒）。</translation>
    </message>
    <message>
        <source>{kind}: {config}, not enough answers yet ({answers} so far)</source>
        <translation>{kind}：{config}、まだ回答が足りません（これまで {answers} 件）</translation>
    </message>
    <message>
        <source>{kind}: {config}, {figure}, from {answers} answers</source>
        <translation>{kind}：{config}、{figure}、回答 {answers} 件から</translation>
    </message>
    <message>
        <source>Auto records each answer&apos;s speed per kind of request and configuration. A route moves only when another configuration is faster beyond the measured noise, and now and then an answer tries an alternative that could be faster.</source>
        <translation>Auto は回答ごとの速度を、リクエストの種類と構成ごとに記録します。経路が変わるのは、別の構成が測定されたばらつきを超えて速いときだけで、ときどき一つの回答がより速いかもしれない別の構成を試します。</translation>
    </message>
    <message>
        <source>{speedup:.2f}x faster (at least {low:.2f}x)</source>
        <translation>{speedup:.2f}x 高速（少なくとも {low:.2f}x）</translation>
    </message>
    <message>
        <source>slower ({speedup:.2f}x the speed)</source>
        <translation>遅い（速度は {speedup:.2f}x）</translation>
    </message>
    <message>
        <source>no clear difference ({speedup:.2f}x)</source>
        <translation>はっきりした差なし（{speedup:.2f}x）</translation>
    </message>
    <message>
        <source>Each figure is a speed against speculation off on this machine. Faster and slower are sure beyond the measured noise, and &quot;at least&quot; is the lowest the speedup is likely to be. No clear difference: the two speeds are within the noise. Not enough answers yet, or too uncertain to tell: the figure could still be far off either way.</source>
        <translation>各数値は、このマシンで投機オフと比べた速度です。「高速」と「遅い」は測定したばらつきを超えていて確かです。「少なくとも」は高速化の見込まれる最低値です。はっきりした差なし：二つの速度はばらつきの範囲内です。まだ回答が足りない、または不確かすぎて判断できない：数値がまだ大きくずれている可能性があります。</translation>
    </message>
    <message>
        <source>{config}: {prose} on prose, {code} on code edits, {repeat} on repeats</source>
        <translation>{config}：文章 {prose}、コード編集 {code}、繰り返し {repeat}</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>未測定</translation>
    </message>
    <message>
        <source>too uncertain to tell</source>
        <translation>不確かすぎて判断できません</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
</context>
<context>
    <name>AutoTuner</name>
    <message>
        <source>Auto: {config} (changed from {old}: {why})</source>
        <extracomment>the name of the calibration&apos;s thread the calibration under way (on a thread of its own, :meth:`~app.gui.ops.Ops.start_own`) free memory now (bytes); tests replace it</extracomment>
        <translation>Auto: {config}（{old} から変更：{why}）</translation>
    </message>
    <message>
        <source>Auto: {config} (not measured: too little free memory)</source>
        <translation>Auto: {config}（未測定：空きメモリ不足）</translation>
    </message>
    <message>
        <source>Auto: {config} while measuring</source>
        <translation>Auto: {config}（測定中）</translation>
    </message>
    <message>
        <source>Measuring would load the model twice more beside the chat ({need} GB) and {free} GB is free, so Auto does not measure in the background: it keeps the best guess for this model and still demotes it if your answers come out slower than plain. Close other programs and Auto measures at the next idle moment, or use Re-measure in the launch dialog.</source>
        <translation>測定にはチャットとは別にモデルをさらに 2 つ読み込む必要があり（{need} GB）、空きは {free} GB のため、Auto はバックグラウンドで測定しません。このモデルの最善の推定を使い続け、回答が通常より遅ければ引き続き降格します。他のプログラムを閉じると次のアイドル時に測定します。起動ダイアログの「再測定」も使えます。</translation>
    </message>
    <message>
        <source>Nothing is measured on this machine yet, so Auto answers with the best guess for this model and measures which speculation pays while you are idle. A new message stops the measurement at once; Auto switches between answers, never during one.</source>
        <translation>このマシンではまだ測定していないため、Auto はこのモデルに対する最善の推測で回答し、操作していない間にどの投機的デコードが得かを測定します。新しいメッセージを送ると測定はすぐに止まります。Auto が切り替えるのは回答と回答の間だけで、回答の途中では切り替えません。</translation>
    </message>
    <message>
        <source>measured on this machine</source>
        <translation>このマシンで測定</translation>
    </message>
    <message>
        <source>{ratio} vs plain on your answers</source>
        <translation>実際の回答で通常デコードの {ratio}</translation>
    </message>
</context>
<context>
    <name>BrowserPage</name>
    <message>
        <source>This entry is invalid and was skipped: {reason}</source>
        <translation>この項目は無効なためスキップされました：{reason}</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>チャット</translation>
    </message>
    <message>
        <source>Continues text (base model)</source>
        <translation>テキストの続きを書く（ベースモデル）</translation>
    </message>
    <message>
        <source>Reasoning</source>
        <translation>推論</translation>
    </message>
    <message>
        <source>Built-in MTP heads</source>
        <translation>内蔵 MTP ヘッド</translation>
    </message>
    <message>
        <source>{tokens} tokens of context</source>
        <translation>コンテキスト {tokens} トークン</translation>
    </message>
    <message>
        <source>{verdict} at {ctx} tokens</source>
        <translation>{verdict}（コンテキスト {ctx} トークン）</translation>
    </message>
    <message>
        <source>Largest quantization that fits: {quant}</source>
        <translation>収まる最大の量子化：{quant}</translation>
    </message>
    <message>
        <source>Fits in memory</source>
        <translation>メモリに収まります</translation>
    </message>
    <message>
        <source>Tight: it needs most of the free memory</source>
        <translation>ぎりぎり：空きメモリの大部分が必要です</translation>
    </message>
    <message>
        <source>Too large for this machine&apos;s free memory</source>
        <translation>このマシンの空きメモリには大きすぎます</translation>
    </message>
    <message>
        <source>Memory need unknown</source>
        <translation>必要なメモリは不明です</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>What this model can do, from its model card and configuration</source>
        <translation>このモデルができること（モデルカードと設定による）</translation>
    </message>
    <message>
        <source>Search models</source>
        <translation>モデルを検索</translation>
    </message>
    <message>
        <source>All formats</source>
        <translation>すべての形式</translation>
    </message>
    <message>
        <source>All sizes</source>
        <translation>すべてのサイズ</translation>
    </message>
    <message>
        <source>Under 1B</source>
        <translation>1B 未満</translation>
    </message>
    <message>
        <source>1B to 5B</source>
        <translation>1B〜5B</translation>
    </message>
    <message>
        <source>5B to 15B</source>
        <translation>5B〜15B</translation>
    </message>
    <message>
        <source>Over 15B</source>
        <translation>15B 超</translation>
    </message>
    <message>
        <source>Has drafter</source>
        <translation>ドラフターあり</translation>
    </message>
    <message>
        <source>Reads images</source>
        <translation>画像を読める</translation>
    </message>
    <message>
        <source>Only models that can read images you attach</source>
        <translation>添付した画像を読めるモデルだけを表示</translation>
    </message>
    <message>
        <source>Calls tools</source>
        <translation>ツールを呼べる</translation>
    </message>
    <message>
        <source>Together: {size}</source>
        <extracomment>The detail card repaints at most this often while the selection changes (about 30 frames/s).</extracomment>
        <translation>合計：{size}</translation>
    </message>
    <message>
        <source>Only models that can call tools (functions) you describe</source>
        <translation>記述したツール（関数）を呼び出せるモデルだけを表示</translation>
    </message>
    <message>
        <source>Only models that declare a drafter for speculative decoding</source>
        <translation>投機的デコード用のドラフターを宣言しているモデルのみ</translation>
    </message>
    <message>
        <source>Downloaded</source>
        <translation>ダウンロード済み</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>ダウンロード</translation>
    </message>
    <message>
        <source>Refresh from hub</source>
        <translation>ハブから更新</translation>
    </message>
    <message>
        <source>Read the quantizations this variant&apos;s repositories hold now (the catalog lists what was published when it was written); new ones are added, missing ones are named.</source>
        <translation>このバリアントのリポジトリに現在ある量子化を読み込みます（カタログには作成時に公開されていたものが載っています）。新しいものは追加され、見つからないものは名前が表示されます。</translation>
    </message>
    <message>
        <source>with its drafter</source>
        <translation>ドラフターも含める</translation>
    </message>
    <message>
        <source>Also download the recommended drafter quantization</source>
        <translation>推奨のドラフター量子化も併せてダウンロード</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Launch…</source>
        <translation>起動…</translation>
    </message>
    <message>
        <source>● downloaded   ◐ partly downloaded   ○ not downloaded</source>
        <translation>● ダウンロード済み   ◐ 一部のみ   ○ 未ダウンロード</translation>
    </message>
</context>
<context>
    <name>Calibration</name>
    <message>
        <source>loading the model without speculation</source>
        <translation>投機なしでモデルを読み込み中</translation>
    </message>
    <message>
        <source>{config}: speed without speculation</source>
        <translation>{config}：投機なしの速度</translation>
    </message>
    <message>
        <source>loading {config}</source>
        <translation>{config} を読み込み中</translation>
    </message>
    <message>
        <source>{config}: prose, speculation off</source>
        <translation>{config}：文章、投機オフ</translation>
    </message>
    <message>
        <source>{config}: prose</source>
        <translation>{config}：文章</translation>
    </message>
    <message>
        <source>{config}: code edit, speculation off</source>
        <translation>{config}：コード編集、投機オフ</translation>
    </message>
    <message>
        <source>{config}: code edit</source>
        <translation>{config}：コード編集</translation>
    </message>
    <message>
        <source>{config}: the same code edit again</source>
        <translation>{config}：同じコード編集をもう一度</translation>
    </message>
    <message>
        <source>{config}: prose again, speculation off</source>
        <translation>{config}：文章をもう一度、投機オフ</translation>
    </message>
    <message>
        <source>{config}: prose again</source>
        <translation>{config}：文章をもう一度</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>測定完了</translation>
    </message>
</context>
<context>
    <name>ChatController</name>
    <message>
        <source>The tool servers could not be read</source>
        <extracomment>the running answer of each conversation that has one shows and saves the running answers as they grow (its timer&apos;s tick is :meth:`_flush`) the conversation&apos;s model, switched to before its answer a message waiting for its conversation&apos;s model to load ends the answers: their rows, bubbles and figures, or the failure reported runs each answer&apos;s task (a window&apos;s operations, or the chat&apos;s own without one) puts each answer&apos;s documents into its prompt; opens the documents&apos; files reads each answer from the engine host the MCP servers offered to the model (None without ops: no tools) runs a message&apos;s tool loop (None without tools)</extracomment>
        <translation>ツールサーバーを読み込めませんでした</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>新しいチャット</translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation>モデル未読み込み</translation>
    </message>
    <message>
        <source>The model is still loading.</source>
        <translation>モデルはまだ読み込み中です。</translation>
    </message>
    <message>
        <source>Your message stays in the box; send it again once the load bar is gone.</source>
        <translation>メッセージは入力欄に残っています。読み込みバーが消えたら、もう一度送信してください。</translation>
    </message>
    <message>
        <source>No model is loaded.</source>
        <translation>モデルが読み込まれていません。</translation>
    </message>
    <message>
        <source>Load a model from the Models page, then send again.</source>
        <translation>「モデル」ページでモデルを読み込んでから、もう一度送信してください。</translation>
    </message>
    <message>
        <source>Loading {model}…</source>
        <translation>{model} を読み込み中…</translation>
    </message>
    <message>
        <source>This message needs {needed} tokens with the system prompt, but the model&apos;s context holds {n_ctx} tokens and {reserved} of them are kept for the answer.</source>
        <extracomment>the conversation shown, if any the chat&apos;s actions follow its running answers</extracomment>
        <translation>このメッセージはシステムプロンプトと合わせて {needed} トークン必要ですが、モデルのコンテキストは {n_ctx} トークンで、そのうち {reserved} トークンは回答用に確保されています。</translation>
    </message>
    <message>
        <source>Shorten the message, lower Max new tokens in Sampling, or load the model with a larger context length.</source>
        <translation>メッセージを短くするか、「サンプリング」で「最大生成トークン数」を下げるか、より大きなコンテキスト長でモデルを読み込んでください。</translation>
    </message>
    <message>
        <source>The answer could not be generated</source>
        <translation>回答を生成できませんでした</translation>
    </message>
    <message>
        <source>This answer&apos;s model is not loaded.</source>
        <extracomment>the answer being measured the documents of its conversation, by stored name</extracomment>
        <translation>この回答のモデルは読み込まれていません。</translation>
    </message>
    <message>
        <source>Load {model} again to measure this answer.</source>
        <translation>この回答を測定するには {model} をもう一度読み込んでください。</translation>
    </message>
    <message>
        <source>The answer could not be measured</source>
        <translation>回答を測定できませんでした</translation>
    </message>
    <message>
        <source>Off</source>
        <extracomment>the choice of a chat not yet stored the configuration that wrote each conversation&apos;s last answer in this session: the header names the shown conversation&apos;s (a new chat has none)</extracomment>
        <translation>オフ</translation>
    </message>
    <message>
        <source>This conversation&apos;s speculation choice is {choice}, but the loaded model runs {running} and cannot change it without a reload.</source>
        <translation>この会話の投機の選択は {choice} ですが、読み込まれたモデルは {running} で動いており、再読み込みしないと変更できません。</translation>
    </message>
    <message>
        <source>no speculation</source>
        <translation>投機なし</translation>
    </message>
    <message>
        <source>Choose Auto beside the conversation&apos;s title, or reload the model with that choice.</source>
        <translation>会話のタイトルの横で Auto を選ぶか、その選択でモデルを再読み込みしてください。</translation>
    </message>
    <message>
        <source>An image</source>
        <translation>画像</translation>
    </message>
    <message>
        <source>{n} images</source>
        <translation>画像 {n} 枚</translation>
    </message>
    <message>
        <source>The models on disk could not be read</source>
        <extracomment>its id in the local API (as ``tandem serve --all`` names it) the model of a chat not yet stored (&quot;&quot;: the loaded one) the models on disk were read (they are read when first needed: the list opens, a conversation that chose a model answers, the Local server starts)</extracomment>
        <translation>ディスク上のモデルを読み取れませんでした</translation>
    </message>
    <message>
        <source>Reading {file}…</source>
        <extracomment>what the worker reports: (&quot;reading&quot; | &quot;indexing&quot;, file name) or (&quot;fitting&quot;, &quot;&quot;)</extracomment>
        <translation>{file} を読んでいます…</translation>
    </message>
    <message>
        <source>Finding the passages of {file}…</source>
        <translation>{file} から関連する箇所を探しています…</translation>
    </message>
    <message>
        <source>Reading the documents…</source>
        <translation>文書を読んでいます…</translation>
    </message>
    <message>
        <source>{file} cannot be opened.</source>
        <extracomment>the chat&apos;s sampling now (its max new tokens set the answer&apos;s reserve) opens a file&apos;s address with the desktop&apos;s application for it</extracomment>
        <translation>{file} を開けません。</translation>
    </message>
    <message>
        <source>Its stored copy is gone or unreadable; attach the file again.</source>
        <translation>保存されたコピーがないか読み取れません。ファイルを添付し直してください。</translation>
    </message>
    <message>
        <source>The message it was attached to is no longer in this conversation.</source>
        <translation>このファイルを添付したメッセージは、この会話にもうありません。</translation>
    </message>
</context>
<context>
    <name>ChatTools</name>
    <message>
        <source>The tool servers could not be started</source>
        <extracomment>the stored servers; None until read (the first second of a start) the loop&apos;s options for each message (the turn cap); a message&apos;s tool choice is its own the running servers (None until the configuration is read)</extracomment>
        <translation>ツールサーバーを起動できませんでした</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <source>Highlight drafted tokens</source>
        <extracomment>a conversation opens with its last messages built at once, the earlier ones a batch per turn where a stored image name&apos;s file is (the controller sets it from its chat store) where a stored document name&apos;s file is (set like image_path) earlier messages of the shown conversation still to be built (oldest first) the user is reading earlier messages while they are built above: this built bubble stays this far (column y minus scroll value) from the top of the view, however tall the messages built above it are (a range delta was fooled by Qt&apos;s passing range of 0) the loaded family&apos;s ``tool_parser``; None: tagged tool calls are still found by their tags</extracomment>
        <translation>ドラフトトークンを強調</translation>
    </message>
    <message>
        <source>Shade the text that came from accepted drafts: the model verified it instead of producing it one token at a time.</source>
        <translation>受理されたドラフト由来のテキストに色を付けます。これらはモデルが 1 トークンずつ生成したのではなく、まとめて検証したものです。</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>サンプリング</translation>
    </message>
    <message>
        <source>System prompt and sampling settings of this conversation</source>
        <translation>この会話のシステムプロンプトとサンプリング設定</translation>
    </message>
    <message>
        <source>Ask anything. Answers stream here with their speed and acceptance statistics.</source>
        <translation>何でも聞いてください。回答はここに逐次表示され、速度と受理率の統計も表示されます。</translation>
    </message>
    <message>
        <source>Switch speculation off</source>
        <translation>投機的デコードをオフにする</translation>
    </message>
    <message>
        <source>Re-measure</source>
        <translation>再測定</translation>
    </message>
    <message>
        <source>Auto chose {method}, but {slower} of your last {n} answers were slower than without speculation ({ratios}).</source>
        <translation>Auto は {method} を選びましたが、直近 {n} 件の回答のうち {slower} 件が投機的デコードなしより遅くなりました（{ratios}）。</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Images and documents ({patterns})</source>
        <extracomment>the message box&apos;s height at rest (about three lines), and the share of the window it may grow to the enabled servers&apos; states and the names of the tools offered (see set_tools) images waiting to be sent with the message the loaded model reads images (None: nothing loaded); attachments to a model that does not are named in the notice at once, before anything is sent documents waiting to be sent with the message (some may still be being read) reads documents off the GUI thread (None: read at once, on this thread) Send was pressed while documents were being read: the message goes once they are</extracomment>
        <translation>画像と文書 ({patterns})</translation>
    </message>
    <message>
        <source>Images ({patterns})</source>
        <translation>画像 ({patterns})</translation>
    </message>
    <message>
        <source>Documents ({patterns})</source>
        <translation>文書 ({patterns})</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Attach images or documents</source>
        <translation>画像や文書を添付</translation>
    </message>
    <message>
        <source>At most {n} images per message; the rest were not attached.</source>
        <translation>1 通のメッセージに添付できる画像は {n} 枚までです。残りは添付していません。</translation>
    </message>
    <message>
        <source>pasted image {n}</source>
        <translation>貼り付けた画像 {n}</translation>
    </message>
    <message>
        <source>At most {n} documents per message; the rest were not attached.</source>
        <translation>1 通のメッセージに添付できる文書は {n} 件までです。残りは添付していません。</translation>
    </message>
    <message>
        <source>Auto</source>
        <translation>自動</translation>
    </message>
    <message>
        <source>None</source>
        <translation>使わない</translation>
    </message>
    <message>
        <source>Any tool</source>
        <translation>いずれかのツール</translation>
    </message>
    <message>
        <source>Call {name}</source>
        <translation>{name} を呼び出す</translation>
    </message>
    <message>
        <source>running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>起動中</translation>
    </message>
    <message>
        <source>failed: {reason}</source>
        <translation>失敗: {reason}</translation>
    </message>
    <message>
        <source>not started</source>
        <translation>未起動</translation>
    </message>
    <message>
        <source>1 tool</source>
        <translation>ツール 1 個</translation>
    </message>
    <message>
        <source>{n} tools</source>
        <translation>ツール {n} 個</translation>
    </message>
    <message>
        <source>{tools} · starting…</source>
        <translation>{tools} · 起動中…</translation>
    </message>
    <message>
        <source>{tools} · {servers} failed</source>
        <translation>{tools} · {servers} が失敗</translation>
    </message>
    <message>
        <source>Tools the model is offered</source>
        <translation>モデルに提供するツール</translation>
    </message>
    <message>
        <source>The servers have not started yet.</source>
        <translation>サーバーはまだ起動していません。</translation>
    </message>
    <message>
        <source>Turn tools on or off in Settings → Tools.</source>
        <translation>ツールのオン/オフは「設定 → ツール」で切り替えます。</translation>
    </message>
    <message>
        <source>Sending once {file} is read…</source>
        <translation>{file} を読み終えたら送信します…</translation>
    </message>
    <message>
        <source>The loaded model cannot read images: load a vision model to send these.</source>
        <translation>読み込んだモデルは画像を読めません。送るには視覚モデルを読み込んでください。</translation>
    </message>
    <message>
        <source>Message the model (Enter to send, Shift+Enter for a new line)</source>
        <translation>モデルにメッセージ（Enter で送信、Shift+Enter で改行）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>送信</translation>
    </message>
    <message>
        <source>Attach images (PNG, JPEG, WebP, GIF or BMP) or documents (text, Markdown, code, CSV, HTML, PDF or DOCX); you can also paste or drop them here</source>
        <translation>画像（PNG、JPEG、WebP、GIF、BMP）や文書（テキスト、Markdown、コード、CSV、HTML、PDF、DOCX）を添付します。ここに貼り付けたりドロップしたりもできます</translation>
    </message>
    <message>
        <source>Tool choice:</source>
        <translation>ツールの選択:</translation>
    </message>
    <message>
        <source>For this message: Auto lets the model decide; None offers no tools; Any tool or a named tool makes the model call one first. Back to Auto after sending.</source>
        <translation>このメッセージだけの設定です。「自動」はモデルが判断し、「使わない」はツールを提供せず、「いずれかのツール」または名前を指定したツールはモデルに最初にツールを呼び出させます。送信後は「自動」に戻ります。</translation>
    </message>
</context>
<context>
    <name>Configuration</name>
    <message>
        <source>off</source>
        <extracomment>a speedup inside [SLOWER, FASTER] is &quot;about the same&quot;; below SLOWER the strip warns</extracomment>
        <translation>オフ</translation>
    </message>
    <message>
        <source>{n}/round</source>
        <translation>{n}/ラウンド</translation>
    </message>
</context>
<context>
    <name>ConversationsModel</name>
    <message>
        <source>Writing an answer…</source>
        <extracomment>the last search&apos;s hits: conversation id -&gt; the text around its first hit the conversations whose answer is being written (a pencil, and a line in the tooltip)</extracomment>
        <translation>回答を書いています…</translation>
    </message>
</context>
<context>
    <name>ConversationsPanel</name>
    <message>
        <source>New chat</source>
        <extracomment>a search runs this long after the last keystroke (one query per pause, not per key)</extracomment>
        <translation>新しいチャット</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>名前を変更</translation>
    </message>
    <message>
        <source>Export conversation</source>
        <translation>会話をエクスポート</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>会話を削除</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>会話を検索</translation>
    </message>
    <message>
        <source>Shows the conversations whose title or messages hold this text</source>
        <translation>タイトルかメッセージにこの文字列を含む会話だけを表示します</translation>
    </message>
    <message>
        <source>No conversation holds this text.</source>
        <translation>この文字列を含む会話はありません。</translation>
    </message>
    <message>
        <source>Markdown with images (*.md)</source>
        <translation>Markdown と画像 (*.md)</translation>
    </message>
    <message>
        <source>Web page (*.html)</source>
        <translation>Web ページ (*.html)</translation>
    </message>
    <message>
        <source>JSON, OpenAI messages with speculation figures (*.json)</source>
        <translation>JSON（OpenAI のメッセージ形式、投機的デコードの数値付き） (*.json)</translation>
    </message>
    <message>
        <source>The conversation could not be exported: {error}</source>
        <translation>会話をエクスポートできませんでした: {error}</translation>
    </message>
</context>
<context>
    <name>DeleteDialog</name>
    <message>
        <source>Also deletes the model and drafter files from the {hub} cache, unless another Tandem model still uses them. Other tools that share this cache (the hf command, Python scripts, other apps) lose these files and must download them again.</source>
        <extracomment>the model is the one loaded now: it is unloaded before its files go</extracomment>
        <translation>モデルとドラフターのファイルも {hub} キャッシュから削除します（他の Tandem モデルがまだ使っているファイルは除きます）。このキャッシュを共有する他のツール（hf コマンド、Python スクリプト、他のアプリ）はこれらのファイルを失い、再ダウンロードが必要になります。</translation>
    </message>
    <message>
        <source>Delete files</source>
        <translation>ファイルを削除</translation>
    </message>
    <message>
        <source>Remove from Tandem</source>
        <translation>Tandem から削除</translation>
    </message>
    <message>
        <source>Delete model</source>
        <translation>モデルを削除</translation>
    </message>
    <message>
        <source>Remove {model} from Tandem?</source>
        <translation>{model} を Tandem から削除しますか？</translation>
    </message>
    <message>
        <source>Tandem&apos;s entry for this model and its drafter is removed. The downloaded files stay in the {hub} cache, where other tools can still use them.</source>
        <translation>このモデルとそのドラフターの Tandem のエントリを削除します。ダウンロード済みのファイルは {hub} キャッシュに残り、他のツールから引き続き使えます。</translation>
    </message>
    <message>
        <source>Tandem found this model in the {hub} cache (another tool downloaded it) and has no entry of its own to remove. Choose “Also free disk space” to delete the files.</source>
        <translation>Tandem はこのモデルを {hub} キャッシュで見つけました（他のツールがダウンロードしたもの）。Tandem 自身の削除できるエントリはありません。ファイルを削除するには「ディスク容量も解放する」を選んでください。</translation>
    </message>
    <message>
        <source>The files take {size}.</source>
        <translation>ファイルのサイズは {size} です。</translation>
    </message>
    <message>
        <source>It is the loaded model: Tandem unloads it first.</source>
        <translation>現在読み込まれているモデルです。Tandem が先に取り出します。</translation>
    </message>
    <message>
        <source>Also free disk space</source>
        <translation>ディスク容量も解放する</translation>
    </message>
</context>
<context>
    <name>DepthField</name>
    <message>
        <source>Enter a whole number greater than zero, or leave it empty.</source>
        <translation>0 より大きい整数を入力するか、空欄のままにしてください。</translation>
    </message>
</context>
<context>
    <name>DocumentChip</name>
    <message>
        <source>Reading…</source>
        <translation>読み込み中…</translation>
    </message>
    <message>
        <source>Reading {file}…</source>
        <translation>{file} を読んでいます…</translation>
    </message>
    <message>
        <source>Open {file}</source>
        <translation>{file} を開く</translation>
    </message>
    <message>
        <source>Remove this document</source>
        <translation>この文書を外す</translation>
    </message>
</context>
<context>
    <name>Documents</name>
    <message>
        <source>{n} bytes</source>
        <extracomment>the most documents one message carries a document longer than this (estimated tokens) gets its passage index built when it is read, off the GUI thread, so the question that needs it does not wait for it the suffixes the file dialog&apos;s &quot;Documents&quot; filter shows (any other file can still be chosen under &quot;All files&quot;: its bytes decide what it is) a chip&apos;s width range (pixels): long names are elided inside it the characters of a passage&apos;s first line shown in the sources list</extracomment>
        <translation>{n} バイト</translation>
    </message>
    <message>
        <source>1 page</source>
        <translation>1 ページ</translation>
    </message>
    <message>
        <source>{n} pages</source>
        <translation>{n} ページ</translation>
    </message>
    <message>
        <source>the file is larger than Tandem reads ({limit} MB, or too much text); attach a smaller file, or split it</source>
        <translation>ファイルが Tandem の読める大きさ（{limit} MB、またはテキスト量）を超えています。小さいファイルを添付するか、分割してください</translation>
    </message>
    <message>
        <source>the file has no text in it</source>
        <translation>ファイルにテキストがありません</translation>
    </message>
    <message>
        <source>this is a binary file, not text; attach a text, PDF or DOCX file</source>
        <translation>これはテキストではなくバイナリファイルです。テキスト、PDF、DOCX のファイルを添付してください</translation>
    </message>
    <message>
        <source>the text is in an encoding Tandem does not read; save it as UTF-8 and attach it again</source>
        <translation>テキストの文字コードを Tandem は読めません。UTF-8 で保存してから添付し直してください</translation>
    </message>
    <message>
        <source>the PDF is protected by a password; remove the protection and attach it again</source>
        <translation>この PDF はパスワードで保護されています。保護を解除してから添付し直してください</translation>
    </message>
    <message>
        <source>the file is damaged and cannot be read; save it again (print a PDF to a new PDF) and attach that</source>
        <translation>ファイルが壊れていて読めません。保存し直して（PDF は新しい PDF に印刷して）添付してください</translation>
    </message>
    <message>
        <source>the PDF has no text layer (a scanned document?); Tandem does not read text in images (no OCR): attach a PDF with text, or the text itself</source>
        <translation>この PDF にはテキストレイヤーがありません（スキャンした文書？）。Tandem は画像内の文字を読みません（OCR はありません）。テキスト入りの PDF か、テキストそのものを添付してください</translation>
    </message>
    <message>
        <source>the file cannot be read; check that it exists and can be opened</source>
        <translation>ファイルを読めません。存在していて開けることを確認してください</translation>
    </message>
    <message>
        <source>Tandem does not read this kind of file; save it as DOCX, PDF or plain text and attach that</source>
        <translation>Tandem はこの種類のファイルを読みません。DOCX、PDF、プレーンテキストのいずれかで保存して添付してください</translation>
    </message>
    <message>
        <source>the document cannot be saved; free some disk space and send again</source>
        <translation>文書を保存できません。ディスクの空きを増やしてから送り直してください</translation>
    </message>
    <message>
        <source>the document is too large to index in the memory left; close other programs or unload a model, or attach a shorter part of it</source>
        <translation>残りのメモリでは文書が大きすぎて索引を作れません。ほかのプログラムを閉じるかモデルを解放するか、文書の短い一部を添付してください</translation>
    </message>
    <message>
        <source>a document of this conversation is no longer stored; edit the message</source>
        <translation>この会話の文書の一つがもう保存されていません。メッセージを編集してください</translation>
    </message>
    <message>
        <source>The documents leave no room in the model&apos;s context: start a new conversation, or load the model with a larger context.</source>
        <translation>文書を入れるとモデルのコンテキストに余裕がありません。新しい会話を始めるか、より大きなコンテキスト長でモデルを読み込んでください。</translation>
    </message>
    <message>
        <source>{file} · whole document</source>
        <translation>{file} · 文書全体</translation>
    </message>
    <message>
        <source>{file} · page {page}</source>
        <translation>{file} · {page} ページ</translation>
    </message>
</context>
<context>
    <name>DownloadsModel</name>
    <message>
        <source>Queued</source>
        <translation>待機中</translation>
    </message>
    <message>
        <source>Downloading</source>
        <translation>ダウンロード中</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>キャンセル済み</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>進捗</translation>
    </message>
    <message>
        <source>Rate</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>Time left</source>
        <translation>残り時間</translation>
    </message>
</context>
<context>
    <name>DownloadsPage</name>
    <message>
        <source>Downloads</source>
        <translation>ダウンロード</translation>
    </message>
    <message>
        <source>No downloads yet. Pick a model on the Models page and press Download.</source>
        <translation>ダウンロードはまだありません。「モデル」ページでモデルを選び「ダウンロード」を押してください。</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>再試行</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>フォルダーを開く</translation>
    </message>
</context>
<context>
    <name>EngineHints</name>
    <message>
        <source>Check the server in Settings → Tools; the conversation is kept as it was.</source>
        <translation>設定 → ツール でサーバーを確認してください。会話はそのまま残っています。</translation>
    </message>
    <message>
        <source>Fix the field named above, then try again; nothing was changed.</source>
        <translation>上に示された項目を修正してから、もう一度お試しください。何も変更されていません。</translation>
    </message>
    <message>
        <source>Check the server&apos;s command (or address) and its settings in Settings → Tools, then start it again.</source>
        <translation>設定 → ツール でサーバーのコマンド（またはアドレス）と設定を確認し、もう一度起動してください。</translation>
    </message>
    <message>
        <source>Start the server in Settings → Tools, then send the message again.</source>
        <translation>設定 → ツール でサーバーを起動してから、メッセージをもう一度送信してください。</translation>
    </message>
    <message>
        <source>The server may be busy or stuck: try again, or raise its time limit in Settings → Tools.</source>
        <translation>サーバーが混雑しているか、止まっている可能性があります。もう一度試すか、設定 → ツール で制限時間を延ばしてください。</translation>
    </message>
    <message>
        <source>Start the server again in Settings → Tools; its log may say why it stopped.</source>
        <translation>設定 → ツール でサーバーを再起動してください。停止した理由はサーバーのログに出ているかもしれません。</translation>
    </message>
    <message>
        <source>The tool reported the error above; change the request or the tool&apos;s settings and try again.</source>
        <translation>ツールが上記のエラーを返しました。依頼内容かツールの設定を変えて、もう一度お試しください。</translation>
    </message>
    <message>
        <source>Choose a tool that a running server offers, or let the model choose (tool choice auto).</source>
        <translation>実行中のサーバーが提供するツールを選ぶか、モデルに選ばせてください（ツール選択 auto）。</translation>
    </message>
    <message>
        <source>Ask for the configuration that runs (or &quot;auto&quot;), or free memory and try again.</source>
        <translation>稼働中の構成（または &quot;auto&quot;）を指定するか、メモリを空けてからもう一度お試しください。</translation>
    </message>
    <message>
        <source>Attach the picture again: its file changed or went away after it was attached.</source>
        <translation>画像を添付し直してください。添付した後にファイルが変更されたか、なくなりました。</translation>
    </message>
    <message>
        <source>Change the request; the model stays loaded.</source>
        <translation>リクエストを直してください。モデルは読み込まれたままです。</translation>
    </message>
    <message>
        <source>Check that the file is a complete model download; delete and download it again if not.</source>
        <translation>ファイルがモデルの完全なダウンロードか確認してください。そうでなければ削除して再ダウンロードしてください。</translation>
    </message>
    <message>
        <source>Check that the file is a complete model llama.cpp supports, or pick another file.</source>
        <translation>ファイルが llama.cpp の対応する完全なモデルか確認するか、別のファイルを選んでください。</translation>
    </message>
    <message>
        <source>Check that the server is running and the endpoint URL is right.</source>
        <translation>サーバーが動作しているか、エンドポイントの URL が正しいか確認してください。</translation>
    </message>
    <message>
        <source>Check the path: most servers answer under /v1, e.g. http://host:8000/v1</source>
        <translation>パスを確認してください。多くのサーバーは /v1 の下で応答します（例: http://host:8000/v1）</translation>
    </message>
    <message>
        <source>Choose the drafter declared for this model, or turn speculative decoding off.</source>
        <translation>このモデルに宣言されたドラフターを選ぶか、投機的デコーディングをオフにしてください。</translation>
    </message>
    <message>
        <source>Connect again.</source>
        <translation>もう一度接続してください。</translation>
    </message>
    <message>
        <source>Download it again or pick another file.</source>
        <translation>もう一度ダウンロードするか、別のファイルを選んでください。</translation>
    </message>
    <message>
        <source>Download the drafter declared for this model, or turn speculative decoding off.</source>
        <translation>このモデルに宣言されたドラフターをダウンロードするか、投機的デコーディングをオフにしてください。</translation>
    </message>
    <message>
        <source>Fix the speculative decoding settings and load again.</source>
        <translation>投機的デコーディングの設定を直してから、もう一度読み込んでください。</translation>
    </message>
    <message>
        <source>Give the server&apos;s OpenAI API address, e.g. https://gpu-box.example:8000/v1</source>
        <translation>サーバーの OpenAI API アドレスを入力してください（例: https://gpu-box.example:8000/v1）</translation>
    </message>
    <message>
        <source>Install the engine&apos;s extra (see the README) or choose another engine.</source>
        <translation>エンジンの追加パッケージをインストールするか（README を参照）、別のエンジンを選んでください。</translation>
    </message>
    <message>
        <source>Load a model first.</source>
        <translation>先にモデルを読み込んでください。</translation>
    </message>
    <message>
        <source>Load a model that reads images (a vision model), or remove the images.</source>
        <translation>画像を読めるモデル（視覚モデル）を読み込むか、画像を外してください。</translation>
    </message>
    <message>
        <source>Load the model again.</source>
        <translation>モデルをもう一度読み込んでください。</translation>
    </message>
    <message>
        <source>Pick one of the models the server lists (tandem remote-models --endpoint URL).</source>
        <translation>サーバーが一覧に出すモデルから選んでください（tandem remote-models --endpoint URL）。</translation>
    </message>
    <message>
        <source>See the server&apos;s log for details.</source>
        <translation>詳しくはサーバーのログを見てください。</translation>
    </message>
    <message>
        <source>Set the key in TANDEM_API_KEY or store it for this endpoint (tandem endpoint-key).</source>
        <translation>TANDEM_API_KEY にキーを設定するか、このエンドポイント用に保存してください（tandem endpoint-key）。</translation>
    </message>
    <message>
        <source>Set the repeat penalty to 1 (off), or turn speculative decoding off.</source>
        <translation>繰り返しペナルティを 1（オフ）にするか、投機的デコーディングをオフにしてください。</translation>
    </message>
    <message>
        <source>Set the temperature to 0, or turn speculative decoding off to sample.</source>
        <translation>温度を 0 にするか、サンプリングしたい場合は投機的デコーディングをオフにしてください。</translation>
    </message>
    <message>
        <source>Choose one of those, or load the model again with that speculation.</source>
        <translation>そのいずれかを選ぶか、その投機方式でモデルを読み込み直してください。</translation>
    </message>
    <message>
        <source>Shorten the conversation or the message, or load the model with a larger context.</source>
        <translation>会話かメッセージを短くするか、より大きなコンテキストでモデルを読み込んでください。</translation>
    </message>
    <message>
        <source>Shorten the message, lower Max new tokens, or load the model with a larger context length.</source>
        <translation>メッセージを短くするか、最大新規トークン数を下げるか、より長いコンテキスト長でモデルを読み込んでください。</translation>
    </message>
    <message>
        <source>Start the server, or check the host name and port of the endpoint.</source>
        <translation>サーバーを起動するか、エンドポイントのホスト名とポートを確認してください。</translation>
    </message>
    <message>
        <source>The model stays loaded; try again, or reload it if the error repeats.</source>
        <translation>モデルは読み込まれたままです。もう一度試し、エラーが続く場合は読み込み直してください。</translation>
    </message>
    <message>
        <source>The partial answer is kept. Check the server (it may have stopped) and try again.</source>
        <translation>途中までの回答は残っています。サーバー（停止したかもしれません）を確認して、もう一度試してください。</translation>
    </message>
    <message>
        <source>The server is slow or overloaded; try again, or raise the timeout.</source>
        <translation>サーバーが遅いか過負荷です。もう一度試すか、タイムアウトを延ばしてください。</translation>
    </message>
    <message>
        <source>The server&apos;s HTTPS certificate is not trusted here. Use a certificate from a trusted authority, or add your own CA to the system&apos;s trust store.</source>
        <translation>このサーバーの HTTPS 証明書はここでは信頼されていません。信頼された認証局の証明書を使うか、自分の CA をシステムの信頼ストアに追加してください。</translation>
    </message>
    <message>
        <source>Turn speculative decoding off for this model.</source>
        <translation>このモデルでは投機的デコーディングをオフにしてください。</translation>
    </message>
    <message>
        <source>Use https:// for servers on other machines, or allow plain HTTP for this endpoint (--allow-http) if it is on a network you trust.</source>
        <translation>ほかのマシンのサーバーには https:// を使ってください。信頼できるネットワーク上なら、このエンドポイントで平文の HTTP を許可できます（--allow-http）。</translation>
    </message>
    <message>
        <source>Use suffix or prompt-lookup on MLX, choose a drafter model, run the model on llama.cpp, or turn speculative decoding off.</source>
        <translation>MLX では suffix か prompt-lookup を使うか、ドラフターモデルを選ぶか、llama.cpp でモデルを動かすか、投機的デコーディングをオフにしてください。</translation>
    </message>
    <message>
        <source>Use the drafter declared for this model (e.g. a Gemma 4 assistant), or turn speculative decoding off.</source>
        <translation>このモデルに宣言されたドラフター（例: Gemma 4 assistant）を使うか、投機的デコーディングをオフにしてください。</translation>
    </message>
    <message>
        <source>Use the method &apos;draft&apos; for a classic same-vocabulary drafter, or pick the model&apos;s own drafter.</source>
        <translation>語彙が同じ通常のドラフターには方式「draft」を使うか、モデル専用のドラフターを選んでください。</translation>
    </message>
</context>
<context>
    <name>EngineLoader</name>
    <message>
        <source>Locating model files</source>
        <extracomment>The one name the stats strip and the status bar give an Auto launch.</extracomment>
        <translation>モデルファイルを探しています</translation>
    </message>
    <message>
        <source>Connecting to {url}</source>
        <translation>{url} に接続しています</translation>
    </message>
</context>
<context>
    <name>ErrorBanner</name>
    <message>
        <source>Details</source>
        <translation>詳細</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>閉じる</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>Something went wrong</source>
        <translation>問題が発生しました</translation>
    </message>
    <message>
        <source>Correct the speculative decoding settings and try again.</source>
        <translation>投機的デコードの設定を修正して、もう一度お試しください。</translation>
    </message>
    <message>
        <source>Install the package named above, then restart Tandem.</source>
        <extracomment>The exception&apos;s own ``hint`` attribute (engine errors): the class that raises knows the cause. (exception type, error code or None for any, hint). Codes: ``CacheError.code`` (HubError: network / auth / not_found) and, for ``OSError``, the errno name (ENOSPC, EACCES...).</extracomment>
        <translation>上記のパッケージをインストールしてから Tandem を再起動してください。</translation>
    </message>
    <message>
        <source>Download the model first (Models page, or the command above), then try again.</source>
        <translation>先にモデルをダウンロードしてください（「モデル」ページ、または上のコマンド）。その後もう一度お試しください。</translation>
    </message>
    <message>
        <source>Free some disk space or choose a smaller quantization, then retry.</source>
        <translation>ディスクの空き容量を増やすか、より小さい量子化を選んでから再試行してください。</translation>
    </message>
    <message>
        <source>Check the network connection and the hub endpoint in Settings, then press Retry.</source>
        <translation>ネットワーク接続と「設定」のハブのエンドポイントを確認してから「再試行」を押してください。</translation>
    </message>
    <message>
        <source>The hub refused access: check the repository id, or store a token for this hub in Settings if the repository is private or gated.</source>
        <translation>ハブがアクセスを拒否しました。リポジトリ ID を確認してください。リポジトリが非公開またはアクセス制限付きの場合は、「設定」でこのハブのトークンを保存してください。</translation>
    </message>
    <message>
        <source>The hub has no such repository or file (or it is private): check the model entry&apos;s repository and file names, or store a token for this hub in Settings.</source>
        <translation>ハブにそのリポジトリまたはファイルがありません（または非公開です）。モデル項目のリポジトリ名とファイル名を確認するか、「設定」でこのハブのトークンを保存してください。</translation>
    </message>
    <message>
        <source>Check the network and the hub settings, then press Retry.</source>
        <translation>ネットワークとハブの設定を確認してから「再試行」を押してください。</translation>
    </message>
    <message>
        <source>The damaged file was removed; press Retry to download it again.</source>
        <translation>破損したファイルは削除されました。「再試行」を押してもう一度ダウンロードしてください。</translation>
    </message>
    <message>
        <source>Press Retry to start the download again.</source>
        <translation>「再試行」を押すとダウンロードをやり直します。</translation>
    </message>
    <message>
        <source>The repository has no file for this quantization; the message names the ones it holds. Choose one of those, or press Refresh from hub on the Models page to list them.</source>
        <translation>リポジトリにはこの量子化のファイルがありません。メッセージに、あるものが表示されています。その中から選ぶか、モデルページで「ハブから更新」を押して一覧を取得してください。</translation>
    </message>
    <message>
        <source>Check the model entry; the message names the field to fix.</source>
        <translation>モデル定義を確認してください。メッセージに修正すべき項目が示されています。</translation>
    </message>
    <message>
        <source>Check the model cache in Settings, then retry.</source>
        <translation>「設定」のモデルキャッシュを確認してから再試行してください。</translation>
    </message>
    <message>
        <source>Choose a complete .gguf file (a download that stopped early is incomplete: download it again) or an MLX model folder with its config.json and weights. Nothing was added.</source>
        <translation>完全な .gguf ファイル（途中で止まったダウンロードは不完全です。もう一度ダウンロードしてください）か、config.json と重みを含む MLX モデルフォルダーを選んでください。何も追加されていません。</translation>
    </message>
    <message>
        <source>Correct the sampling settings (temperature, top-p, top-k, max new tokens) and try again.</source>
        <translation>サンプリング設定（温度、top-p、top-k、最大新規トークン数）を修正してからもう一度お試しください。</translation>
    </message>
    <message>
        <source>Choose another engine or model in the launch dialog.</source>
        <translation>起動ダイアログで別のエンジンまたはモデルを選んでください。</translation>
    </message>
    <message>
        <source>The file is not a complete GGUF model: delete it and download it again.</source>
        <translation>このファイルは完全な GGUF モデルではありません。削除してもう一度ダウンロードしてください。</translation>
    </message>
    <message>
        <source>Use https:// for a server on another machine, or tick Allow plain HTTP for this endpoint if it is on a network you trust.</source>
        <translation>他のマシンのサーバーには https:// を使ってください。信頼できるネットワーク上にある場合は、このエンドポイントで「平文 HTTP を許可」にチェックを入れてください。</translation>
    </message>
    <message>
        <source>Enter the server&apos;s OpenAI API address, e.g. https://gpu-box.example:8000/v1.</source>
        <translation>サーバーの OpenAI API アドレスを入力してください（例: https://gpu-box.example:8000/v1）。</translation>
    </message>
    <message>
        <source>Start the server, or check the host name and port of the endpoint.</source>
        <translation>サーバーを起動するか、エンドポイントのホスト名とポートを確認してください。</translation>
    </message>
    <message>
        <source>The server&apos;s HTTPS certificate is not trusted here: use one from a trusted authority, or add your own CA to the system&apos;s trust store.</source>
        <translation>このサーバーの HTTPS 証明書はここでは信頼されていません。信頼できる認証局の証明書を使うか、独自の CA をシステムの信頼ストアに追加してください。</translation>
    </message>
    <message>
        <source>Enter the server&apos;s API key on the launch dialog&apos;s Remote server tab; Tandem keeps it in the system keyring.</source>
        <translation>起動ダイアログの「リモートサーバー」タブでサーバーの API キーを入力してください。Tandem はシステムのキーリングに保存します。</translation>
    </message>
    <message>
        <source>Press List models on the Remote server tab and pick a model the server serves.</source>
        <translation>「リモートサーバー」タブで「モデル一覧」を押し、サーバーが提供するモデルを選んでください。</translation>
    </message>
    <message>
        <source>The server is slow or overloaded; try again.</source>
        <translation>サーバーが遅いか過負荷です。もう一度お試しください。</translation>
    </message>
    <message>
        <source>The partial answer is kept. Check the server (it may have stopped), then ask again.</source>
        <translation>途中までの回答は保持されています。サーバーを確認し（停止している可能性があります）、もう一度質問してください。</translation>
    </message>
    <message>
        <source>See the server&apos;s log for details.</source>
        <translation>詳細はサーバーのログを確認してください。</translation>
    </message>
    <message>
        <source>Tandem may not write there: check the folder&apos;s permissions.</source>
        <translation>Tandem はそこに書き込めません。フォルダーのアクセス権を確認してください。</translation>
    </message>
    <message>
        <source>A file Tandem needs is missing; the message names it.</source>
        <translation>Tandem が必要とするファイルが見つかりません。メッセージにファイル名が示されています。</translation>
    </message>
    <message>
        <source>Check free disk space and permissions, then retry.</source>
        <translation>ディスクの空き容量と権限を確認してから再試行してください。</translation>
    </message>
    <message>
        <source>Check the engine and model chosen in the launch dialog, then try again.</source>
        <translation>起動ダイアログで選んだエンジンとモデルを確認してから、もう一度お試しください。</translation>
    </message>
    <message>
        <source>Unexpected error</source>
        <translation>予期しないエラー</translation>
    </message>
    <message>
        <source>Tandem keeps running. If this repeats, report it with the details below.</source>
        <translation>Tandem は動作を続けています。繰り返し発生する場合は、以下の詳細を添えて報告してください。</translation>
    </message>
</context>
<context>
    <name>FitLabel</name>
    <message>
        <source>Checking…</source>
        <translation>確認中…</translation>
    </message>
    <message>
        <source>Memory use unknown: {reason}</source>
        <translation>メモリ使用量は不明: {reason}</translation>
    </message>
    <message>
        <source>Fits in memory ({total:.1f} of {avail:.1f} GiB available)</source>
        <translation>メモリに収まります（{total:.1f} GiB／利用可能 {avail:.1f} GiB）</translation>
    </message>
    <message>
        <source>Tight: needs {total:.1f} of {avail:.1f} GiB available</source>
        <translation>ぎりぎり: {total:.1f} GiB 必要、利用可能 {avail:.1f} GiB</translation>
    </message>
    <message>
        <source>Too large: needs {total:.1f} GiB, {avail:.1f} GiB available</source>
        <translation>大きすぎます: {total:.1f} GiB 必要、利用可能 {avail:.1f} GiB</translation>
    </message>
    <message>
        <source>Memory use unknown for this quantization</source>
        <translation>この量子化のメモリ使用量は不明です</translation>
    </message>
    <message>
        <source>The KV cache is counted once the file is downloaded (its header gives it).</source>
        <translation>KV キャッシュはファイルのダウンロード後に計上されます（ヘッダーから求めます）。</translation>
    </message>
</context>
<context>
    <name>HubSearchPanel</name>
    <message>
        <source>Search {hub} (press Enter)</source>
        <translation>{hub} を検索（Enter キー）</translation>
    </message>
    <message>
        <source>Search models</source>
        <translation>モデルを検索</translation>
    </message>
    <message>
        <source>Type what to look for, then press Enter.</source>
        <translation>探すものを入力して Enter を押してください。</translation>
    </message>
    <message>
        <source>Searching {hub}…</source>
        <translation>{hub} を検索中…</translation>
    </message>
    <message>
        <source>Search cancelled.</source>
        <translation>検索をキャンセルしました。</translation>
    </message>
    <message>
        <source>No models match this search.</source>
        <translation>この検索に一致するモデルはありません。</translation>
    </message>
    <message>
        <source>{count} results; choose one to see its files.</source>
        <translation>{count} 件の結果。選ぶとファイルが表示されます。</translation>
    </message>
    <message>
        <source>Search needs the network; your registry still works.</source>
        <translation>検索にはネットワークが必要です。登録済みのモデルは引き続き使えます。</translation>
    </message>
    <message>
        <source>Listing the files of {repo}…</source>
        <translation>{repo} のファイルを一覧中…</translation>
    </message>
    <message>
        <source>Other GGUF files</source>
        <translation>その他の GGUF ファイル</translation>
    </message>
    <message>
        <source>{n} parts: {names}</source>
        <translation>{n} 分割: {names}</translation>
    </message>
    <message>
        <source>{repo}: {n} files. Add it to your models to download and launch it.</source>
        <translation>{repo}: {n} 個のファイル。マイモデルに追加するとダウンロードして起動できます。</translation>
    </message>
    <message>
        <source>Could not add it: {reason}</source>
        <translation>追加できませんでした: {reason}</translation>
    </message>
    <message>
        <source>Added {name} to your models.</source>
        <translation>{name} をマイモデルに追加しました。</translation>
    </message>
    <message>
        <source>Catalog</source>
        <translation>カタログ</translation>
    </message>
    <message>
        <source>My models</source>
        <translation>マイモデル</translation>
    </message>
    <message>
        <source>Where the search field looks: the catalog, the models on this computer, or a hub</source>
        <translation>検索欄の検索先：カタログ、このコンピューターにあるモデル、またはハブ</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation>ダウンロード数</translation>
    </message>
    <message>
        <source>Likes</source>
        <translation>いいね</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>更新日</translation>
    </message>
    <message>
        <source>Formats</source>
        <translation>形式</translation>
    </message>
    <message>
        <source>Quantization / file</source>
        <translation>量子化 / ファイル</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>サイズ</translation>
    </message>
    <message>
        <source>More results</source>
        <translation>さらに表示</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Add to my models</source>
        <translation>マイモデルに追加</translation>
    </message>
    <message>
        <source>Import model…</source>
        <translation>モデルを読み込む…</translation>
    </message>
    <message>
        <source>Add a .gguf file or an MLX folder from this computer (or drop it on the window)</source>
        <translation>このコンピューターの .gguf ファイルまたは MLX フォルダーを追加します（ウィンドウへのドロップでも可）</translation>
    </message>
</context>
<context>
    <name>ImageViewer</name>
    <message>
        <source>Image</source>
        <translation>画像</translation>
    </message>
    <message>
        <source>{w} × {h} pixels, {kb} KB</source>
        <translation>{w} × {h} ピクセル、{kb} KB</translation>
    </message>
</context>
<context>
    <name>ImportController</name>
    <message>
        <source>Import model</source>
        <translation>モデルを読み込む</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF モデル (*.gguf)</translation>
    </message>
    <message>
        <source>Models (*.gguf config.json)</source>
        <translation>モデル (*.gguf config.json)</translation>
    </message>
    <message>
        <source>MLX model folder: its config.json (config.json)</source>
        <translation>MLX モデルフォルダー：その config.json を選択 (config.json)</translation>
    </message>
    <message>
        <source>Could not import the model</source>
        <translation>モデルを読み込めませんでした</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <source>Import model</source>
        <translation>モデルを読み込む</translation>
    </message>
    <message>
        <source>Compatible drafters (same vocabulary, smaller):</source>
        <translation>互換性のあるドラフター（同じ語彙で、より小さいもの）:</translation>
    </message>
    <message>
        <source>Use as drafter</source>
        <translation>ドラフターとして使う</translation>
    </message>
    <message>
        <source>Launch…</source>
        <translation>起動…</translation>
    </message>
    <message>
        <source>Registered {name} ({fmt}, {quant}) from {path}.</source>
        <translation>{path} から {name}（{fmt}、{quant}）を登録しました。</translation>
    </message>
    <message>
        <source>{name} is already in your models ({fmt}, {quant}, {path}).</source>
        <translation>{name} はすでにマイモデルにあります（{fmt}、{quant}、{path}）。</translation>
    </message>
    <message>
        <source>Looking for compatible drafters…</source>
        <translation>互換性のあるドラフターを探しています…</translation>
    </message>
    <message>
        <source>The drafter search failed: {reason}</source>
        <translation>ドラフターの検索に失敗しました: {reason}</translation>
    </message>
    <message>
        <source>Choose a drafter to pair with it, or launch it alone.</source>
        <translation>組み合わせるドラフターを選ぶか、単独で起動してください。</translation>
    </message>
    <message>
        <source>No compatible drafter found nearby; it can still run alone or with a model-free method.</source>
        <translation>近くに互換性のあるドラフターは見つかりませんでした。単独でも、モデル不要の方式でも実行できます。</translation>
    </message>
    <message>
        <source>Not offered:</source>
        <translation>候補外:</translation>
    </message>
    <message>
        <source>{drafter} is now its drafter.</source>
        <translation>{drafter} をドラフターに設定しました。</translation>
    </message>
</context>
<context>
    <name>LaunchCoordinator</name>
    <message>
        <source>The model could not be loaded</source>
        <extracomment>the choice of the last load started (the Auto notice reloads it)</extracomment>
        <translation>モデルを読み込めませんでした</translation>
    </message>
    <message>
        <source>Downloading; the model loads when the download finishes.</source>
        <translation>ダウンロード中です。完了するとモデルを読み込みます。</translation>
    </message>
    <message>
        <source>The download could not be queued</source>
        <translation>ダウンロードをキューに追加できませんでした</translation>
    </message>
    <message>
        <source>Speculation is off for this model now.</source>
        <translation>このモデルの投機的デコードをオフにしました。</translation>
    </message>
    <message>
        <source>The default model is not available</source>
        <translation>既定のモデルを使用できません</translation>
    </message>
    <message>
        <source>{model} could not be reopened: {reason}</source>
        <translation>{model} を再度開けませんでした：{reason}</translation>
    </message>
    <message>
        <source>Your last model was not reopened</source>
        <translation>前回のモデルを再度開けませんでした</translation>
    </message>
    <message>
        <source>The default model is loaded instead. Download the model again from the Models page.</source>
        <translation>代わりに既定のモデルを読み込みました。「モデル」ページからモデルを再ダウンロードしてください。</translation>
    </message>
    <message>
        <source>the {engine} engine is not available ({reason})</source>
        <translation>{engine} エンジンを使用できません（{reason}）</translation>
    </message>
    <message>
        <source>its files are no longer on disk</source>
        <translation>そのファイルはもうディスク上にありません</translation>
    </message>
    <message>
        <source>its drafter&apos;s files are no longer on disk</source>
        <translation>そのドラフターのファイルはもうディスク上にありません</translation>
    </message>
</context>
<context>
    <name>LaunchDialog</name>
    <message>
        <source>This engine is not available here: {reason}</source>
        <extracomment>Each note code&apos;s sentence, in the dialog&apos;s translation context (the sentences and their translations are the ones the dialog always had); parameters are filled in by ``_say``.</extracomment>
        <translation>このエンジンはここでは使えません：{reason}</translation>
    </message>
    <message>
        <source>{quant} is not downloaded yet; launching queues its download first.</source>
        <translation>{quant} はまだダウンロードされていません。起動するとまずダウンロードを予約します。</translation>
    </message>
    <message>
        <source>Enable MTP</source>
        <translation>MTP を有効化</translation>
    </message>
    <message>
        <source>Use the drafter model</source>
        <translation>ドラフターを使う</translation>
    </message>
    <message>
        <source>The drafter ({quant}) is not downloaded yet. Launching queues its download, then loads the model with it.</source>
        <translation>ドラフター（{quant}）はまだダウンロードされていません。起動するとダウンロードを予約し、完了後にモデルと一緒に読み込みます。</translation>
    </message>
    <message>
        <source>default</source>
        <translation>既定</translation>
    </message>
    <message>
        <source>This is a mixture-of-experts model: it computes only part of itself per token, so a drafter may cost more than it saves. Compare the tokens/s in the statistics strip with speculation on and off.</source>
        <translation>これは Mixture-of-Experts モデルです。トークンごとにモデルの一部しか計算しないため、ドラフターのコストが効果を上回ることがあります。投機のオンとオフで統計バーのトークン/秒を比べてください。</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>オフ</translation>
    </message>
    <message>
        <source>Turn the drafter off to use a model-free method.</source>
        <translation>モデル不要の方式を使うには、ドラフターをオフにしてください。</translation>
    </message>
    <message>
        <source>engine default</source>
        <translation>エンジン既定値</translation>
    </message>
    <message>
        <source>{path}
Compatible: {reason}</source>
        <extracomment>the one state of the form: every widget change replaces it, every widget shows it</extracomment>
        <translation>{path}
互換: {reason}</translation>
    </message>
    <message>
        <source>Not offered:</source>
        <translation>候補外:</translation>
    </message>
    <message>
        <source>Runs the drafter file chosen below beside the model: it proposes several tokens per round and the model verifies them in one pass, so the answer is identical. It was found on this computer with the same vocabulary; nothing is downloaded.</source>
        <translation>下で選んだドラフターファイルをモデルと並べて実行します。ドラフターが1ラウンドに複数のトークンを提案し、モデルが1回のパスで検証するため、回答は同一です。このファイルはこのコンピューター上で見つかった同じ語彙のものです。何もダウンロードしません。</translation>
    </message>
    <message>
        <source>The drafter ({quant}) is not downloaded, so Auto measures without it. Download it from the Models page to let Auto try it.</source>
        <translation>ドラフター（{quant}）がダウンロードされていないため、Auto はそれなしで測定します。モデルページからダウンロードすると Auto が試せます。</translation>
    </message>
    <message>
        <source>Looking for a compatible drafter on this computer…</source>
        <translation>このコンピューター上で互換性のあるドラフターを探しています…</translation>
    </message>
    <message>
        <source>No compatible drafter found on this computer. Download a smaller model of the same family (same vocabulary) to draft for it, or use a model-free method.</source>
        <translation>このコンピューター上に互換性のあるドラフターが見つかりません。同じファミリーの小さいモデル（同じ語彙）をダウンロードしてドラフターにするか、モデル不要の方式を使ってください。</translation>
    </message>
    <message>
        <source>The drafter search failed: {detail}</source>
        <translation>ドラフターの検索に失敗しました: {detail}</translation>
    </message>
    <message>
        <source>This model reads images with its projector (mmproj), which is not downloaded: this launch reads text only. Download the model again from the Models page to fetch it.</source>
        <translation>このモデルはプロジェクター（mmproj）で画像を読みますが、まだダウンロードされていません。今回の起動はテキストのみです。「モデル」ページでモデルをもう一度ダウンロードすると取得できます。</translation>
    </message>
    <message>
        <source>{method} cannot run with pictures on this llama.cpp: this launch reads text only. Choose another speculation method to send pictures.</source>
        <translation>この llama.cpp では {method} を画像と一緒に使えません。今回の起動はテキストのみです。画像を送るには別の推測方式を選んでください。</translation>
    </message>
    <message>
        <source>Max new tokens ({max}) must be less than the context length ({ctx}): the conversation needs room in the context too.</source>
        <translation>最大生成トークン数（{max}）はコンテキスト長（{ctx}）より小さくしてください。会話にもコンテキストの領域が必要です。</translation>
    </message>
    <message>
        <source>These sampling values cannot be used: {detail}</source>
        <extracomment>A note code without a sentence of its own: a sampling value the form refused.</extracomment>
        <translation>これらのサンプリング値は使用できません: {detail}</translation>
    </message>
    <message>
        <source>Reads images: its vision tower is part of the model.</source>
        <translation>画像を読めます。視覚エンコーダーはモデルに含まれています。</translation>
    </message>
    <message>
        <source>Reads images with its projector. With pictures, speculation runs with {methods}; not with {refused}.</source>
        <translation>プロジェクターで画像を読みます。画像があるとき推測デコードは {methods} で動き、{refused} では動きません。</translation>
    </message>
    <message>
        <source>Reads images with its projector; speculation runs with pictures too.</source>
        <translation>プロジェクターで画像を読みます。画像があっても推測デコードは動きます。</translation>
    </message>
    <message>
        <source>{engine} computes on the GPU (Metal), so it does not use a CPU thread count; this field does not apply.</source>
        <translation>{engine} は GPU（Metal）で計算するため CPU スレッド数を使いません。この項目は適用されません。</translation>
    </message>
    <message>
        <source>{quant} (cached)</source>
        <translation>{quant}（キャッシュ済み）</translation>
    </message>
    <message>
        <source>{quant} (partial)</source>
        <translation>{quant}（一部）</translation>
    </message>
    <message>
        <source>Suffix decoding: drafts from your earlier questions and answers (kept on this computer), so a regenerated or similar answer comes out many tokens per round; the model still checks every token, so the answer is the same. Settings &gt; Forget learned text deletes what it learned; deleting a conversation deletes what that conversation taught.</source>
        <translation>サフィックスデコーディング: 以前の質問と回答（このコンピューターにのみ保存）から下書きするため、再生成や似た回答は1ラウンドで多くのトークンを出力します。モデルはすべてのトークンを確認するので、回答は同じです。設定 &gt; 学習したテキストを忘れる で学習内容を削除します。会話を削除すると、その会話から学んだ内容も削除されます。</translation>
    </message>
    <message>
        <source>Prompt lookup: drafts by copying from this request&apos;s own text (the conversation so far), nothing is kept between requests. It helps when the answer repeats the question, such as editing code.</source>
        <translation>プロンプトルックアップ: このリクエスト自身のテキスト（これまでの会話）からコピーして下書きします。リクエスト間では何も保持しません。コードの編集など、回答が質問を繰り返す場合に最も役立ちます。</translation>
    </message>
    <message>
        <source>Suffix decoding</source>
        <translation>サフィックスデコーディング</translation>
    </message>
    <message>
        <source>Prompt lookup</source>
        <translation>プロンプトルックアップ</translation>
    </message>
    <message>
        <source>engine default: {value}</source>
        <translation>エンジン既定 {value}</translation>
    </message>
    <message>
        <source>This conversation has pictures, and this model reads text only: a message with a picture cannot go to it. Choose a model that reads images, or start a new conversation.</source>
        <extracomment>What the launch dialog says when the conversation that launches has pictures this launch cannot read (``CHAT_IMAGES_UNREADABLE``), by the note&apos;s ``why``.</extracomment>
        <translation>この会話には画像がありますが、このモデルはテキストしか読めません。画像付きのメッセージは送れません。画像を読めるモデルを選ぶか、新しい会話を始めてください。</translation>
    </message>
    <message>
        <source>This conversation has pictures, but this launch reads text only: the model&apos;s image projector (mmproj) is not downloaded. Download the model again from the Models page.</source>
        <translation>この会話には画像がありますが、今回の起動はテキストしか読めません。モデルの画像プロジェクター（mmproj）がダウンロードされていません。「モデル」ページからモデルをもう一度ダウンロードしてください。</translation>
    </message>
    <message>
        <source>This conversation has pictures, but {method} cannot run with pictures here: this launch reads text only. Choose another speculation method to send them.</source>
        <translation>この会話には画像がありますが、ここでは {method} を画像と一緒に実行できません。今回の起動はテキストしか読めません。画像を送るには別の推測方式を選んでください。</translation>
    </message>
    <message>
        <source>Tokens per round: how many tokens are drafted before the model verifies them. The model adds one token of its own every round, so a round yields at most this many plus one. Leave empty for the engine default.</source>
        <translation>1 ラウンドあたりのトークン数：モデルが検証する前にドラフトされるトークンの数です。モデルは毎ラウンド自分でも 1 トークンを加えるため、1 ラウンドの出力は最大でこの数 + 1 です。空欄ならエンジンの既定値を使います。</translation>
    </message>
    <message>
        <source>On MLX the Gemma 4 assistant is trained on blocks of {block} tokens that include the verified token, so it drafts {value} per round by default.</source>
        <translation>MLX では Gemma 4 アシスタントは検証済みトークンを含む {block} トークンのブロックで学習されているため、既定では 1 ラウンドに {value} トークンをドラフトします。</translation>
    </message>
    <message>
        <source>On MLX suffix decoding and prompt lookup this is the longest draft in a round; a round drafts fewer when the learned text is less sure.</source>
        <translation>MLX のサフィックスデコーディングとプロンプトルックアップでは、これは1ラウンドの最長の下書きです。学習したテキストの確信度が低いと、ラウンドの下書きは短くなります。</translation>
    </message>
    <message>
        <source>On MLX this is the drafter&apos;s block size minus the verified token; empty uses the depth the drafter was trained for.</source>
        <translation>MLX では、ドラフターのブロックサイズから検証済みトークンを引いた値です。空欄ならドラフターの学習時の深さを使います。</translation>
    </message>
    <message>
        <source>On llama.cpp n-gram methods this is the longest draft taken from earlier text in a round.</source>
        <translation>llama.cpp の n-gram 方式では、1 ラウンドで前のテキストから取る最長のドラフトです。</translation>
    </message>
    <message>
        <source>On llama.cpp this is the drafter&apos;s maximum draft length (draft.n_max); a round may draft fewer when the drafter is unsure.</source>
        <translation>llama.cpp ではドラフターの最大ドラフト長（draft.n_max）です。ドラフターに確信がないときは、1 ラウンドの提案数が少なくなることがあります。</translation>
    </message>
    <message>
        <source>Default here: {value} ({source}).</source>
        <translation>ここでの既定値：{value}（{source}）。</translation>
    </message>
    <message>
        <source>recommended for this Gemma 4 size</source>
        <translation>この Gemma 4 サイズの推奨値</translation>
    </message>
    <message>
        <source>the drafter&apos;s trained depth</source>
        <translation>ドラフターの学習時の深さ</translation>
    </message>
    <message>
        <source>not offered by this engine</source>
        <translation>このエンジンでは提供されていません</translation>
    </message>
    <message>
        <source>Tandem&apos;s longest draft for this method</source>
        <translation>この方法での Tandem の最長下書き</translation>
    </message>
    <message>
        <source>Tandem&apos;s longest draft; each round&apos;s depth follows the measured acceptance</source>
        <translation>Tandem の最長下書き。各ラウンドの深さは実測の受理率に従います</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s own default</source>
        <translation>llama.cpp 自体の既定値</translation>
    </message>
    <message>
        <source>Drafts with the model&apos;s own multi-token prediction (MTP) heads: they propose several tokens per round and the model verifies them in one pass, so the answer is identical. The heads are part of the model&apos;s file; nothing is downloaded.</source>
        <translation>モデル自身のマルチトークン予測（MTP）ヘッドで下書きします。ヘッドが1ラウンドに複数のトークンを提案し、モデルが1回のパスで検証するため、回答は同一です。ヘッドはモデルのファイルの一部です。何もダウンロードしません。</translation>
    </message>
    <message>
        <source>Runs a small drafter beside the model. The drafter proposes several tokens per round and the model verifies them in one pass: the answer is identical, decoding is faster.</source>
        <translation>小さなドラフターをモデルと並べて実行します。ドラフターが1ラウンドに複数のトークンを提案し、モデルが1回のパスで検証します。回答は同一で、デコードが速くなります。</translation>
    </message>
    <message>
        <source>The drafter ({quant}) is already on this computer; nothing is downloaded.</source>
        <translation>ドラフター（{quant}）はすでにこのコンピューターにあります。何もダウンロードしません。</translation>
    </message>
    <message>
        <source>The drafter ({quant}) is not on this computer yet: launching with it on downloads it first.</source>
        <translation>ドラフター（{quant}）はまだこのコンピューターにありません。オンのまま起動すると、先にダウンロードします。</translation>
    </message>
    <message>
        <source>Auto is off: this launch answers without speculation. Turn Auto on to let Tandem choose, or choose a drafter or a model-free method below.</source>
        <translation>Auto はオフです：この起動は投機なしで回答します。Tandem に選ばせるには Auto をオンにするか、下でドラフターかモデル不要の方式を選んでください。</translation>
    </message>
    <message>
        <source>the model&apos;s own MTP heads</source>
        <translation>モデル自身の MTP ヘッド</translation>
    </message>
    <message>
        <source>the MTP assistant</source>
        <translation>MTP アシスタント</translation>
    </message>
    <message>
        <source>the drafter model ({method})</source>
        <translation>ドラフターモデル（{method}）</translation>
    </message>
    <message>
        <source>the drafter model</source>
        <translation>このドラフターモデル</translation>
    </message>
    <message>
        <source>This launch drafts with {what}, as many tokens per round as the engine&apos;s default.</source>
        <translation>この起動は{what}で下書きします。1ラウンドのトークン数はエンジンの既定値です。</translation>
    </message>
    <message>
        <source>This launch drafts with {what}, up to {depth} tokens per round.</source>
        <translation>この起動は{what}で下書きします。1ラウンドに最大 {depth} トークンです。</translation>
    </message>
    <message>
        <source>Auto is off.</source>
        <translation>Auto はオフです。</translation>
    </message>
    <message>
        <source>Auto is off while the drafter is on: turn the drafter off to go back to Auto.</source>
        <translation>ドラフターがオンの間、Auto はオフです。ドラフターをオフにすると Auto に戻ります。</translation>
    </message>
    <message>
        <source>Auto is off while a model-free method is chosen: choose Off there to go back to Auto.</source>
        <translation>モデル不要の方式を選んでいる間、Auto はオフです。そこで「オフ」を選ぶと Auto に戻ります。</translation>
    </message>
    <message>
        <source>the model card</source>
        <translation>モデルカード</translation>
    </message>
    <message>
        <source>Starts at {value}, recommended by the model card ({source}).</source>
        <translation>初期値は {value} で、モデルカードの推奨値です（{source}）。</translation>
    </message>
    <message>
        <source>Starts at {value}, Tandem&apos;s default (Settings).</source>
        <translation>初期値は {value}（Tandem の既定値、設定）です。</translation>
    </message>
    <message>
        <source>Launch {name}</source>
        <translation>{name} を起動</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>このコンピューター</translation>
    </message>
    <message>
        <source>Remote server</source>
        <translation>リモートサーバー</translation>
    </message>
    <message>
        <source>Chat through your own vLLM, SGLang or llama-server (an OpenAI-compatible API).</source>
        <translation>ご自身の vLLM、SGLang、llama-server（OpenAI 互換 API）を通してチャットします。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Speculation</source>
        <translation>投機の方式</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>バリアント</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>量子化</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>エンジン</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>メモリ</translation>
    </message>
    <message>
        <source>Only engines that can run this model&apos;s format are listed.</source>
        <translation>このモデルの形式を実行できるエンジンだけを表示しています。</translation>
    </message>
    <message>
        <source>Speculative Decoding</source>
        <translation>投機的デコード</translation>
    </message>
    <message>
        <source>Speculation can be slower when the drafter is expensive relative to the model, for example with mixture-of-experts models. Tandem measures every answer: the statistics strip shows tokens/s and how many drafted tokens were accepted, so you can see whether it pays.</source>
        <translation>ドラフターのコストがモデルに比べて大きい場合（たとえば Mixture-of-Experts モデル）、投機はかえって遅くなることがあります。Tandem はすべての回答を計測し、統計バーにトークン/秒と受理されたドラフトトークン数を表示するので、効果があるかどうかを確認できます。</translation>
    </message>
    <message>
        <source>Drafter</source>
        <translation>ドラフター</translation>
    </message>
    <message>
        <source>Drafter Quantization</source>
        <translation>ドラフターの量子化</translation>
    </message>
    <message>
        <source>Defaults to the first available</source>
        <translation>既定では最初の利用可能な項目</translation>
    </message>
    <message>
        <source>The drafter is small, so quantizing it saves little memory but lowers how many of its tokens are accepted. An unquantized drafter is recommended even for a quantized model.</source>
        <translation>ドラフターは小さいため、量子化してもメモリはほとんど節約できず、トークンの受理率が下がります。量子化されたモデルであっても、量子化していないドラフターをおすすめします。</translation>
    </message>
    <message>
        <source>Speculative Tokens</source>
        <translation>投機トークン数</translation>
    </message>
    <message>
        <source>Model-free speculation</source>
        <translation>モデル不要の投機</translation>
    </message>
    <message>
        <source>Drafts from repeated text in the prompt and earlier answers, with no extra model. It helps most when answers repeat or edit earlier text, such as code.</source>
        <translation>追加のモデルなしで、プロンプトや以前の回答に繰り返し現れるテキストからドラフトを作ります。コードのように以前のテキストを繰り返したり編集したりする回答で最も効果があります。</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方式</translation>
    </message>
    <message>
        <source>Runtime and sampling</source>
        <translation>実行とサンプリング</translation>
    </message>
    <message>
        <source>Context length</source>
        <translation>コンテキスト長</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>スレッド数</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自動</translation>
    </message>
    <message>
        <source>CPU threads the engine computes with.</source>
        <translation>エンジンが計算に使う CPU スレッド。</translation>
    </message>
    <message>
        <source>{n} threads, as typed. Automatic would start with {auto}: the cores that do math on this computer.</source>
        <translation>{n} スレッド（入力した値）。自動なら {auto} で始めます：このコンピューターで計算を担うコアの数です。</translation>
    </message>
    <message>
        <source>Automatic: {n} threads, one per performance core ({n} of {cpus} CPUs), as llama.cpp counts them.</source>
        <translation>自動：{n} スレッド。性能コアごとに 1 つ（{cpus} 個の CPU のうち {n} 個）で、llama.cpp と同じ数え方です。</translation>
    </message>
    <message>
        <source>Automatic: {n} threads, one per physical core ({cpus} CPUs with hyper-threading), as llama.cpp counts them.</source>
        <translation>自動：{n} スレッド。物理コアごとに 1 つ（ハイパースレッディングを含め {cpus} 個の CPU）で、llama.cpp と同じ数え方です。</translation>
    </message>
    <message>
        <source>Automatic: {n} threads, one per core, as llama.cpp counts them.</source>
        <translation>自動：{n} スレッド。コアごとに 1 つで、llama.cpp と同じ数え方です。</translation>
    </message>
    <message>
        <source>Fewer when other programs keep cores busy or another model computes at the same time: each model starts with the cores that are free then, and an idle model follows them.</source>
        <translation>他のプログラムがコアを使っているときや、別のモデルが同時に計算しているときは少なくなります。各モデルはその時点で空いているコアで起動し、待機中のモデルはそれに合わせて変わります。</translation>
    </message>
    <message>
        <source>Automatic: the context the model was trained for, as far as the memory estimate allows (at least 4,096 tokens). Coding agents need 8,192 tokens or more.</source>
        <translation>自動：モデルが学習したコンテキスト長を、メモリの見積もりが許す範囲で使います（最低 4,096 トークン）。コーディングエージェントには 8,192 トークン以上が必要です。</translation>
    </message>
    <message>
        <source>Automatic: {n} threads</source>
        <translation>自動：{n} スレッド</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
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
        <translation>最大生成トークン数</translation>
    </message>
    <message>
        <source>Repeat penalty</source>
        <translation>繰り返しペナルティ</translation>
    </message>
    <message>
        <source>Higher gives more varied answers; 0 always picks the most likely token.</source>
        <translation>高いほど多様な回答になります。0 では常に最も確率の高いトークンを選びます。</translation>
    </message>
    <message>
        <source>Samples only from the most likely tokens that together reach this probability.</source>
        <translation>合計確率がこの値に達するまでの、確率の高いトークンからのみサンプリングします。</translation>
    </message>
    <message>
        <source>Samples only from this many most likely tokens; 0 is off.</source>
        <translation>確率の高い上位この数のトークンからのみサンプリングします。0 でオフです。</translation>
    </message>
    <message>
        <source>Above 1 makes repeating recent text less likely; 1 is off.</source>
        <translation>1 より大きいと直近のテキストを繰り返しにくくなります。1 でオフです。</translation>
    </message>
    <message>
        <source>The longest answer, in tokens. Starts at {value}, Tandem&apos;s default (Settings).</source>
        <translation>回答の最大長（トークン数）です。初期値は {value}（Tandem の既定値、設定）です。</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>起動</translation>
    </message>
</context>
<context>
    <name>LoadBar</name>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
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
        <translation>チャット</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation>ダウンロード</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>設定</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>言語</translation>
    </message>
    <message>
        <source>Model: {name}</source>
        <translation>モデル：{name}</translation>
    </message>
    <message>
        <source>Engine: {name}</source>
        <translation>エンジン：{name}</translation>
    </message>
    <message>
        <source>Speculation: {mode}</source>
        <translation>投機：{mode}</translation>
    </message>
    <message>
        <source>Speculation: off</source>
        <translation>投機：オフ</translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation>モデル未読み込み</translation>
    </message>
    <message>
        <source>Memory: {value}</source>
        <translation>メモリ：{value}</translation>
    </message>
    <message>
        <source>Each conversation&apos;s speculation runs in a configuration of the loaded model, started on first use beside it and stopped when idle; the weights are shared, each configuration adds its own cache.</source>
        <translation>各会話の投機的デコードは、読み込まれたモデルの構成のいずれかで実行されます。初回使用時にその横で起動し、アイドル時に停止します。重みは共有され、構成ごとに独自のキャッシュだけが追加されます。</translation>
    </message>
    <message>
        <source>Loading {name}…</source>
        <translation>{name} を読み込み中…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>キャンセル中…</translation>
    </message>
    <message>
        <source>Loading: {step}</source>
        <translation>読み込み中：{step}</translation>
    </message>
    <message>
        <source>The model could not be loaded</source>
        <translation>モデルを読み込めませんでした</translation>
    </message>
    <message>
        <source>Eject</source>
        <extracomment>how often the memory, the threads and the pool are read again (ms) the loaded model&apos;s engine pool: the configurations running now the loaded models, their memory and an Unload each (a menu)</extracomment>
        <translation>取り出す</translation>
    </message>
    <message>
        <source>Unload the model and free the memory it holds</source>
        <translation>モデルをアンロードして、使用中のメモリを解放します</translation>
    </message>
    <message>
        <source>as set in the launch dialog</source>
        <translation>起動ダイアログでの設定どおり</translation>
    </message>
    <message>
        <source>one per core that does math ({n}), all free</source>
        <translation>計算を担うコアごとに 1 つ（{n} 個）、すべて空き</translation>
    </message>
    <message>
        <source>other programs keep {busy} of the {n} cores that do math busy</source>
        <translation>他のプログラムが計算を担う {n} 個のコアのうち {busy} 個を使用中</translation>
    </message>
    <message>
        <source>other models hold {shared} of the {n} cores that do math</source>
        <translation>他のモデルが計算を担う {n} 個のコアのうち {shared} 個を使用中</translation>
    </message>
    <message>
        <source>every core that does math is taken, so the fewest</source>
        <translation>計算を担うコアがすべて使用中のため、最小限のスレッド</translation>
    </message>
    <message>
        <source>Auto&apos;s measurement found that more threads do not pay here</source>
        <translation>Auto の測定で、ここではスレッドを増やしても得にならないとわかりました</translation>
    </message>
    <message>
        <source>CPU threads of the model&apos;s llama.cpp processes:</source>
        <translation>モデルの llama.cpp プロセスの CPU スレッド：</translation>
    </message>
    <message>
        <source>the model</source>
        <translation>読み込んだモデル</translation>
    </message>
    <message>
        <source>{configuration}: {n} threads</source>
        <translation>{configuration}：{n} スレッド</translation>
    </message>
    <message>
        <source>A model at rest follows the free cores; a thread count set in the launch dialog wins.</source>
        <translation>待機中のモデルは空いているコアに合わせて変わります。起動ダイアログで設定したスレッド数が優先されます。</translation>
    </message>
    <message>
        <source>This conversation&apos;s choice, beside its title; the model was loaded with {launch}</source>
        <translation>この会話の選択（タイトルの横）です。モデルは {launch} で読み込まれています</translation>
    </message>
    <message>
        <source>no speculation</source>
        <translation>投機なし</translation>
    </message>
    <message>
        <source>Models: {n} ({memory})</source>
        <translation>モデル: {n}（{memory}）</translation>
    </message>
    <message>
        <source>Loaded models: {memory} of the {budget} they may take together. A model used before stays loaded while it fits; the least recently used one goes first.</source>
        <translation>読み込み済みのモデル：合計 {memory}（上限 {budget}）。以前使ったモデルはメモリに収まる間は読み込まれたままです。最も長く使われていないものから外されます。</translation>
    </message>
    <message>
        <source>Unload {model} ({memory})</source>
        <translation>{model} をアンロード（{memory}）</translation>
    </message>
    <message>
        <source>(answers now)</source>
        <translation>（現在回答中のモデル）</translation>
    </message>
    <message>
        <source>It is answering; unload it after.</source>
        <translation>回答中です。回答が終わってからアンロードしてください。</translation>
    </message>
    <message>
        <source>Also running: {configurations} (+{memory})</source>
        <translation>同時に実行中: {configurations}（+{memory}）</translation>
    </message>
    <message>
        <source>{configuration}: {tps} tok/s (answers: {requests})</source>
        <translation>{configuration}: {tps} tok/s（回答数: {requests}）</translation>
    </message>
    <message>
        <source>Model unloaded; its memory is freed.</source>
        <translation>モデルをアンロードし、メモリを解放しました。</translation>
    </message>
    <message>
        <source>Loading cancelled</source>
        <translation>読み込みをキャンセルしました</translation>
    </message>
    <message>
        <source>Added to downloads</source>
        <translation>ダウンロードに追加しました</translation>
    </message>
    <message>
        <source>A download failed</source>
        <translation>ダウンロードに失敗しました</translation>
    </message>
    <message>
        <source>Settings could not be saved</source>
        <translation>設定を保存できませんでした</translation>
    </message>
    <message>
        <source>Quit Tandem?</source>
        <extracomment>the question Quit asks while an answer is being written (None when not open)</extracomment>
        <translation>Tandem を終了しますか？</translation>
    </message>
    <message>
        <source>An answer is still being written. Quitting stops it.</source>
        <translation>回答をまだ生成中です。終了すると回答は止まります。</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>終了</translation>
    </message>
</context>
<context>
    <name>MessageBubble</name>
    <message>
        <source>Tool call</source>
        <translation>ツール呼び出し</translation>
    </message>
    <message>
        <source>Writing the answer…</source>
        <translation>回答を書いています…</translation>
    </message>
    <message>
        <source>Stopped before the first word.</source>
        <translation>最初の語が出る前に停止しました。</translation>
    </message>
    <message>
        <source>Interrupted before the first word.</source>
        <translation>最初の語が出る前に中断されました。</translation>
    </message>
    <message>
        <source>Failed before the first word.</source>
        <translation>最初の語が出る前に失敗しました。</translation>
    </message>
    <message>
        <source>The model gave an empty answer.</source>
        <translation>モデルの回答は空でした。</translation>
    </message>
    <message>
        <source>You</source>
        <translation>あなた</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>アシスタント</translation>
    </message>
    <message>
        <source>Tool result</source>
        <translation>ツールの結果</translation>
    </message>
    <message>
        <source>Result of {name}</source>
        <translation>{name} の結果</translation>
    </message>
    <message>
        <source>Show or hide what the tool returned</source>
        <translation>ツールが返した内容を表示/非表示</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>停止済み</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>中断</translation>
    </message>
    <message>
        <source>Tandem was closed while this answer was being written; the text saved so far is shown. Regenerate writes it again.</source>
        <translation>この回答の作成中に Tandem が終了しました。保存済みの部分を表示しています。「再生成」で書き直せます。</translation>
    </message>
    <message>
        <source>Earlier turns were left out to fit the model&apos;s context.</source>
        <translation>モデルのコンテキストに収めるため、以前のやり取りは省きました。</translation>
    </message>
    <message>
        <source>Messages not sent to the model: {count}. Only the newest turns fit.</source>
        <translation>モデルに送らなかったメッセージ：{count} 件。収まるのは最新のやり取りだけです。</translation>
    </message>
    <message>
        <source>Copy</source>
        <extracomment>a streamed answer&apos;s finished blocks go into frozen labels of about this many characters each, so appending a block lays out one bounded label, never the whole answer a streamed answer longer than this keeps its frozen labels when it ends (rendering a long answer again as one text holds the window at its end); shorter ones end as one text, as a loaded answer shows the colours and labels of the last render: a new palette or language renders again earlier messages left out of this answer&apos;s prompt to fit the context (0: none) the loaded family&apos;s ``tool_parser`` (tool calls shown as blocks) an answer&apos;s tool calls, one block each, under its text a ``tool`` message: the tool whose result it is what an answer not written yet is doing (&quot;Reading the documents…&quot;); &quot;&quot; for the usual note the message&apos;s images, above its text; click one to enlarge it a user message&apos;s documents, as chips under its images; click one to open it an answer&apos;s sources: the documents and passages it was given</extracomment>
        <translation>コピー</translation>
    </message>
    <message>
        <source>Copy the text of this message</source>
        <translation>このメッセージのテキストをコピー</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>編集</translation>
    </message>
    <message>
        <source>Edit and resend: the answers after it are replaced</source>
        <translation>編集して再送信：これ以降の回答は置き換えられます</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>再生成</translation>
    </message>
    <message>
        <source>Generate this answer again</source>
        <translation>この回答をもう一度生成</translation>
    </message>
</context>
<context>
    <name>ModelChoice</name>
    <message>
        <source>Loaded model ({name})</source>
        <extracomment>the mark of a loaded model in the list</extracomment>
        <translation>読み込み済みのモデル（{name}）</translation>
    </message>
    <message>
        <source>Loaded model</source>
        <translation>読み込み済みのモデル</translation>
    </message>
    <message>
        <source>Answer with whatever model is loaded</source>
        <translation>読み込まれているモデルで回答します</translation>
    </message>
    <message>
        <source>Loaded: answers at once</source>
        <translation>読み込み済み：すぐに回答します</translation>
    </message>
    <message>
        <source>On disk: the next message loads it</source>
        <translation>ディスク上：次のメッセージで読み込みます</translation>
    </message>
    <message>
        <source>No longer on disk: download it again from the Models page</source>
        <translation>ディスクにありません：「モデル」ページから再ダウンロードしてください</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>モデル:</translation>
    </message>
    <message>
        <source>The model this conversation answers with. Another model loads with your next message; the one used before stays loaded while memory allows.</source>
        <translation>この会話で回答するモデルです。別のモデルは次のメッセージで読み込まれ、以前のモデルはメモリが許す限り読み込まれたままです。</translation>
    </message>
</context>
<context>
    <name>ModelFilesController</name>
    <message>
        <source>The repository could not be listed</source>
        <translation>リポジトリのファイル一覧を取得できませんでした</translation>
    </message>
    <message>
        <source>Listing the repository…</source>
        <translation>リポジトリのファイル一覧を取得しています…</translation>
    </message>
    <message>
        <source>{repo} holds {n} quantizations.</source>
        <translation>{repo} には {n} 個の量子化があります。</translation>
    </message>
    <message>
        <source>Added: {quants}.</source>
        <translation>追加：{quants}。</translation>
    </message>
    <message>
        <source>Not in the repository: {quants}.</source>
        <translation>リポジトリにないもの：{quants}。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>Drafter quantizations: {quants}.</source>
        <translation>ドラフターの量子化：{quants}。</translation>
    </message>
    <message>
        <source>The files could not be deleted</source>
        <translation>ファイルを削除できませんでした</translation>
    </message>
    <message>
        <source>Removed {model} from Tandem with its unfinished download ({size}).</source>
        <translation>{model} を Tandem から削除し、未完了のダウンロード（{size}）も削除しました。</translation>
    </message>
    <message>
        <source>Removed {model} from Tandem; its files stay in the hub cache.</source>
        <translation>{model} を Tandem から削除しました。ファイルはハブのキャッシュに残っています。</translation>
    </message>
    <message>
        <source>Deleted {model}: {size} of disk space freed.</source>
        <translation>{model} を削除しました：{size} のディスク容量を解放しました。</translation>
    </message>
    <message>
        <source>Removed {model} from Tandem; no disk space was freed (its files are still used by other Tandem models, or were already gone).</source>
        <translation>{model} を Tandem から削除しました。ディスク容量は解放されませんでした（ファイルが他の Tandem モデルで使われているか、すでに存在しません）。</translation>
    </message>
</context>
<context>
    <name>RegistryModel</name>
    <message>
        <source>Downloaded</source>
        <extracomment>The roles the spec tree answers; a repaint asks every cell for a dozen roles (font, background, check state...), so the others return before any work (browser case). The family table stores exactly its roles in Qt items. &quot;disk&quot;: what the family&apos;s files use, measured for the &quot;My models&quot; scope only</extracomment>
        <translation>ダウンロード済み</translation>
    </message>
    <message>
        <source>Partially downloaded</source>
        <translation>一部ダウンロード済み</translation>
    </message>
    <message>
        <source>Not downloaded</source>
        <translation>未ダウンロード</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>確認中…</translation>
    </message>
    <message>
        <source>unverified</source>
        <translation>未確認</translation>
    </message>
    <message>
        <source>{hub}: unverified. No stored public page confirms {repo} and its file names; the download checks the repository&apos;s own listing and says what it finds.</source>
        <translation>{hub}：未確認。{repo} とそのファイル名を確認できる保存済みの公開ページがありません。ダウンロード時にリポジトリ自身のファイル一覧を確認し、見つかったものを表示します。</translation>
    </message>
    <message>
        <source>{hub}: checked on {date} against {url}</source>
        <translation>{hub}：{date} に {url} で確認済み</translation>
    </message>
    <message>
        <source>Mixture of experts: {active}B of {total}B parameters run per token. A drafter often slows MoE models down: verifying several drafted tokens wakes more experts than generating one.</source>
        <translation>混合エキスパート（MoE）：トークンごとに {total}B 中 {active}B のパラメータが動作します。ドラフターは MoE モデルを遅くすることがよくあります。複数のドラフトトークンの検証では、1 トークンの生成より多くのエキスパートが動くためです。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Formats</source>
        <translation>形式</translation>
    </message>
    <message>
        <source>Sizes</source>
        <translation>サイズ</translation>
    </message>
    <message>
        <source>Drafter</source>
        <translation>ドラフター</translation>
    </message>
    <message>
        <source>On disk</source>
        <translation>ディスク</translation>
    </message>
    <message>
        <source>Has a drafter for speculative decoding</source>
        <translation>投機的デコード用のドラフターあり</translation>
    </message>
    <message>
        <source>No drafter</source>
        <translation>ドラフターなし</translation>
    </message>
    <message>
        <source>Measuring the disk its files use…</source>
        <translation>ファイルが使うディスク容量を計測しています…</translation>
    </message>
    <message>
        <source>invalid</source>
        <translation>無効</translation>
    </message>
    <message>
        <source>Variant</source>
        <extracomment>the memory verdicts of the shown family, computed off the GUI thread (None: no column) the recommendations of the last verdict batch asked for (kept with the batch itself)</extracomment>
        <translation>バリアント</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>メモリ</translation>
    </message>
    <message>
        <source>Will it fit in this machine&apos;s free memory at the context length of the settings? ★ marks the largest quantization that fits.</source>
        <translation>設定のコンテキスト長で、このマシンの空きメモリに収まるか。★ は収まる最大の量子化を示します。</translation>
    </message>
    <message>
        <source>A small model that proposes tokens for this one to verify; used by speculative decoding.</source>
        <translation>このモデルが検証するトークンを提案する小さなモデルで、投機的デコードに使われます。</translation>
    </message>
    <message>
        <source>The vision projector (mmproj) that lets this model read images; it is downloaded with the model and deleted with it.</source>
        <translation>このモデルが画像を読むための視覚プロジェクター（mmproj）です。モデルと一緒にダウンロードされ、モデルと一緒に削除されます。</translation>
    </message>
    <message>
        <source>with drafter</source>
        <translation>ドラフターあり</translation>
    </message>
    <message>
        <source>built-in MTP</source>
        <translation>MTP 内蔵</translation>
    </message>
    <message>
        <source>Drafter quantizations</source>
        <translation>ドラフターの量子化</translation>
    </message>
    <message>
        <source>Image projector (mmproj)</source>
        <translation>画像プロジェクター（mmproj）</translation>
    </message>
    <message>
        <source>Model quantizations</source>
        <translation>モデルの量子化</translation>
    </message>
    <message>
        <source>default</source>
        <translation>既定</translation>
    </message>
    <message>
        <source>Memory use unknown: {reason}</source>
        <translation>メモリ使用量は不明: {reason}</translation>
    </message>
    <message>
        <source>Estimating the memory it needs…</source>
        <translation>必要なメモリを見積もっています…</translation>
    </message>
    <message>
        <source>The disk its files use: every downloaded quantization, its drafters and its image projector. A file several models share is counted once.</source>
        <translation>ファイルが使うディスク容量：ダウンロード済みのすべての量子化、そのドラフター、画像プロジェクター。複数のモデルで共有するファイルは一度だけ数えます。</translation>
    </message>
    <message>
        <source>{size} on disk</source>
        <translation>ディスク上 {size}</translation>
    </message>
    <message>
        <source>({size} of it in unfinished downloads)</source>
        <translation>（うち {size} は未完了のダウンロード）</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>収まる</translation>
    </message>
    <message>
        <source>Tight</source>
        <translation>ぎりぎり</translation>
    </message>
    <message>
        <source>Too large</source>
        <translation>大きすぎる</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>不明</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>不明</translation>
    </message>
    <message>
        <source>{size} (estimated from the parameter count)</source>
        <translation>{size}（パラメータ数から推定）</translation>
    </message>
    <message>
        <source>{size} (from the hub listing)</source>
        <translation>{size}（ハブのファイル一覧から）</translation>
    </message>
    <message>
        <source>{size} (as the hub listed it when the catalog entry was checked)</source>
        <translation>{size}（カタログ項目の確認時にハブが示したサイズ）</translation>
    </message>
    <message>
        <source>unknown until a file is downloaded (its header gives it)</source>
        <translation>ファイルをダウンロードするまで不明（そのヘッダーから求めます）</translation>
    </message>
    <message>
        <source>unknown until it is listed or downloaded</source>
        <translation>一覧を取得するかダウンロードするまで不明</translation>
    </message>
    <message>
        <source>{verdict} at {ctx} tokens</source>
        <translation>{ctx} トークンで{verdict}</translation>
    </message>
    <message>
        <source>Weights: {size}</source>
        <translation>重み: {size}</translation>
    </message>
    <message>
        <source>KV cache: {size}</source>
        <translation>KV キャッシュ: {size}</translation>
    </message>
    <message>
        <source>Drafter: {size}</source>
        <translation>ドラフター: {size}</translation>
    </message>
    <message>
        <source>Overhead: {size}</source>
        <translation>オーバーヘッド: {size}</translation>
    </message>
    <message>
        <source>Total: {size}</source>
        <translation>合計: {size}</translation>
    </message>
    <message>
        <source>Available now: {size}</source>
        <translation>現在の空き: {size}</translation>
    </message>
    <message>
        <source>★ The largest quantization that fits</source>
        <translation>★ 収まる最大の量子化</translation>
    </message>
</context>
<context>
    <name>RemoteTab</name>
    <message>
        <source>Stored in the system keyring for this endpoint when the server answers.</source>
        <extracomment>(server engine, label) offered for the serve command None: no key was typed; True: stored in the keyring; False: the keyring did not keep it</extracomment>
        <translation>サーバーが応答すると、このエンドポイント用にシステムのキーリングへ保存されます。</translation>
    </message>
    <message>
        <source>A key is stored in the keyring for this endpoint; leave the field empty to use it.</source>
        <translation>このエンドポイントのキーはキーリングに保存済みです。使用するには空欄のままにしてください。</translation>
    </message>
    <message>
        <source>Asking {url} for its models…</source>
        <translation>{url} にモデルを問い合わせています…</translation>
    </message>
    <message>
        <source>{n} model(s) on this server ({kind}).</source>
        <translation>このサーバーには {n} 個のモデルがあります（{kind}）。</translation>
    </message>
    <message>
        <source>The system keyring did not keep the key: Tandem uses it for this launch only.</source>
        <translation>システムのキーリングにキーを保存できませんでした。Tandem は今回の起動でのみ使用します。</translation>
    </message>
    <message>
        <source>The server&apos;s models could not be listed</source>
        <translation>サーバーのモデルを一覧表示できませんでした</translation>
    </message>
    <message>
        <source>OpenAI-compatible</source>
        <translation>OpenAI 互換</translation>
    </message>
    <message>
        <source>The statistics strip shows the rounds and acceptance this server reports (when it runs with a drafter).</source>
        <translation>統計バーには、このサーバーが報告するラウンド数と受理率が表示されます（ドラフター付きで動作している場合）。</translation>
    </message>
    <message>
        <source>This server does not report acceptance: the statistics strip shows its speed only.</source>
        <translation>このサーバーは受理率を報告しません。統計バーには速度のみ表示されます。</translation>
    </message>
    <message>
        <source>The server&apos;s own launch settings decide speculation. The statistics strip shows the rounds and acceptance where the server reports them (llama.cpp timings, vLLM and SGLang metrics).</source>
        <translation>投機的デコードはサーバー自身の起動設定で決まります。統計バーには、サーバーが報告するラウンド数と受理率（llama.cpp の timings、vLLM と SGLang のメトリクス）が表示されます。</translation>
    </message>
    <message>
        <source>The baseline must be another server: the same model without a drafter.</source>
        <translation>ベースラインは別のサーバーにしてください（同じモデルをドラフターなしで）。</translation>
    </message>
    <message>
        <source>Verify needs a second server of the same model without a drafter: start the command below without its drafter options, on another port, and enter its address here.</source>
        <translation>検証には、同じモデルをドラフターなしで動かす 2 台目のサーバーが必要です。下のコマンドからドラフターのオプションを外して別のポートで起動し、そのアドレスをここに入力してください。</translation>
    </message>
    <message>
        <source>No {engine} command for this model: {reason}</source>
        <translation>このモデルの {engine} コマンドはありません：{reason}</translation>
    </message>
    <message>
        <source>Copied to the clipboard.</source>
        <translation>クリップボードにコピーしました。</translation>
    </message>
    <message>
        <source>Plain HTTP to {host} would send the key and your chats unencrypted: use https://, or tick Allow plain HTTP if this network is yours.</source>
        <translation>{host} への平文 HTTP では、キーとチャットが暗号化されずに送信されます。https:// を使うか、自分のネットワークなら「このエンドポイントで平文 HTTP を許可」にチェックを入れてください。</translation>
    </message>
    <message>
        <source>Not a server address Tandem connects to: {detail}</source>
        <translation>Tandem が接続できるサーバーアドレスではありません：{detail}</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>サーバー</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>エンドポイント</translation>
    </message>
    <message>
        <source>The OpenAI API address of your own server (vLLM, SGLang, llama-server or any OpenAI-compatible one). HTTPS is required for other machines.</source>
        <translation>ご自身のサーバー（vLLM、SGLang、llama-server、または任意の OpenAI 互換サーバー）の OpenAI API アドレス。他のマシンには HTTPS が必要です。</translation>
    </message>
    <message>
        <source>Allow plain HTTP for this endpoint</source>
        <translation>このエンドポイントで平文 HTTP を許可</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API キー</translation>
    </message>
    <message>
        <source>Leave empty if the server needs none</source>
        <translation>サーバーが不要なら空欄のまま</translation>
    </message>
    <message>
        <source>Kept in the system keyring for this endpoint only, never in Tandem&apos;s settings.</source>
        <translation>このエンドポイント専用にシステムのキーリングに保存され、Tandem の設定には保存されません。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>The server&apos;s only model</source>
        <translation>サーバーの唯一のモデル</translation>
    </message>
    <message>
        <source>List models</source>
        <translation>モデル一覧</translation>
    </message>
    <message>
        <source>Ask the server which models it serves</source>
        <translation>サーバーが提供するモデルを問い合わせます</translation>
    </message>
    <message>
        <source>Start a server for {model}</source>
        <translation>{model} のサーバーを起動</translation>
    </message>
    <message>
        <source>The command that starts the server with this model&apos;s drafter, translated from Tandem&apos;s model entry (the same as `tandem serve-command`).</source>
        <translation>このモデルのドラフターを付けてサーバーを起動するコマンドです。Tandem のモデル定義から変換されます（`tandem serve-command` と同じ）。</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <source>Check the drafter</source>
        <translation>ドラフターを検証</translation>
    </message>
    <message>
        <source>Baseline endpoint (no drafter)</source>
        <translation>ベースライン（ドラフターなし）</translation>
    </message>
    <message>
        <source>A second server of the same model without a drafter. Verify compares the greedy answers of both: speculative decoding must not change them. Its key is the one stored for it in the keyring, else the endpoint&apos;s key when both run on the same machine.</source>
        <translation>同じモデルをドラフターなしで動かす 2 台目のサーバーです。検証では両方の貪欲デコードの回答を比べます。投機的デコードで回答が変わってはいけません。キーはキーリングに保存されたこのサーバー用のもの、なければ同じマシン上ならエンドポイントのキーを使います。</translation>
    </message>
    <message>
        <source>Verify output…</source>
        <translation>出力を検証…</translation>
    </message>
    <message>
        <source>Compare greedy answers to a few built-in prompts (prose, code, Chinese, a list, arithmetic) from this endpoint and from the baseline, token by token where the servers give ids</source>
        <translation>いくつかの組み込みプロンプト（文章、コード、中国語、リスト、計算）に対するこのエンドポイントとベースラインの貪欲デコードの回答を比べます。サーバーが ID を返す場合はトークン単位で比較します</translation>
    </message>
</context>
<context>
    <name>SamplingDialog</name>
    <message>
        <source>Conversation settings</source>
        <translation>会話の設定</translation>
    </message>
    <message>
        <source>e.g. You are a concise assistant.</source>
        <translation>例：あなたは簡潔に答えるアシスタントです。</translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation>システムプロンプト</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
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
        <translation>最大生成トークン数</translation>
    </message>
</context>
<context>
    <name>ServerController</name>
    <message>
        <source>Starting the local server</source>
        <extracomment>the start / stop operations, one after the other servers started on an operation thread and not stopped yet; shutdown() stops them all, also one whose start finishes after the window closed (its coroutine is cancelled then) a start or stop is under way the served model&apos;s context in tokens (0 when unknown), read when the server starts the engine pool of the served model (llama.cpp): the window&apos;s (the engine host&apos;s), which closes it with the model the window&apos;s loaded models and the models on disk, served by id (None: the loaded model answers every request)</extracomment>
        <translation>ローカルサーバーを起動中</translation>
    </message>
    <message>
        <source>Stopping the local server</source>
        <translation>ローカルサーバーを停止中</translation>
    </message>
</context>
<context>
    <name>ServerLog</name>
    <message>
        <source>refused: prompt {prompt} tok &gt; context {context} tok</source>
        <translation>拒否：プロンプト {prompt} トークン &gt; コンテキスト {context} トークン</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>error</source>
        <translation>エラー</translation>
    </message>
    <message>
        <source>stream</source>
        <translation>ストリーム</translation>
    </message>
    <message>
        <source>single</source>
        <translation>一括</translation>
    </message>
    <message>
        <source>{status} {kind}: {prompt}+{completion} tok, {tps} tok/s, drafted {drafted} accepted {accepted} ({rate}), {rounds} rounds, {mean} tok/round</source>
        <translation>{status} {kind}：{prompt}+{completion} トークン、{tps} トークン/秒、ドラフト {drafted}・採用 {accepted}（{rate}）、{rounds} ラウンド、{mean} トークン/ラウンド</translation>
    </message>
    <message>
        <source>, {n} tool calls</source>
        <translation>、ツール呼び出し {n} 回</translation>
    </message>
</context>
<context>
    <name>ServerPanel</name>
    <message>
        <source>Local server</source>
        <extracomment>the panel opens about this many average characters wide (its texts wrap at that width) the request log shows at least this many lines the request log opens this many lines tall (more requests scroll inside it) the served context, and what to do when an agent&apos;s request did not fit in it (prompt tokens, context) of the last request refused because it did not fit the configurations running for per-request speculation, and what each served stops serving (the status bar&apos;s switch opens this panel while the server runs)</extracomment>
        <translation>ローカルサーバー</translation>
    </message>
    <message>
        <source>OpenAI- and Anthropic-compatible API of the loaded model</source>
        <translation>読み込んだモデルの OpenAI・Anthropic 互換 API</translation>
    </message>
    <message>
        <source>API key (send as &apos;Authorization: Bearer &lt;key&gt;&apos; or &apos;x-api-key: &lt;key&gt;&apos;):</source>
        <translation>API キー（&apos;Authorization: Bearer &lt;key&gt;&apos; または &apos;x-api-key: &lt;key&gt;&apos; として送信）：</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <source>Allow other machines to connect</source>
        <translation>他のマシンからの接続を許可</translation>
    </message>
    <message>
        <source>Served requests</source>
        <translation>処理したリクエスト</translation>
    </message>
    <message>
        <source>Use with an agent</source>
        <translation>エージェントで使う</translation>
    </message>
    <message>
        <source>Paste these settings into the terminal that starts the agent: Claude Code uses the Anthropic lines, OpenAI clients the OpenAI lines. Copy fills in the key.</source>
        <translation>エージェントを起動するターミナルにこの設定を貼り付けてください。Claude Code は Anthropic の行、OpenAI クライアントは OpenAI の行を使います。コピーするとキーが入ります。</translation>
    </message>
    <message>
        <source>Copy settings</source>
        <translation>設定をコピー</translation>
    </message>
    <message>
        <source>Stop server</source>
        <translation>サーバーを停止</translation>
    </message>
    <message>
        <source>Stop serving the loaded model; the model stays loaded for the chat</source>
        <translation>読み込んだモデルの提供を停止します。モデルは読み込まれたままで、チャットに使えます</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <source>Close this panel; the server goes on serving</source>
        <translation>このパネルを閉じます。サーバーは動作を続けます</translation>
    </message>
    <message>
        <source>Not running</source>
        <translation>停止中</translation>
    </message>
    <message>
        <source>Warning: the server listens on all network addresses; anyone who has the key can use it.</source>
        <translation>警告: サーバーはすべてのネットワークアドレスで待ち受けています。キーを持つ人は誰でも使用できます。</translation>
    </message>
    <message>
        <source>Speculation per request: %1 running; %2 of %3 slots busy.</source>
        <translation>リクエストごとの投機的デコード：%1 が稼働中、%3 スロット中 %2 が使用中。</translation>
    </message>
    <message>
        <source>%1: %2 requests, %3 tok/s</source>
        <translation>%1：%2 件のリクエスト、%3 tok/s</translation>
    </message>
    <message>
        <source>(%1x of off)</source>
        <translation>（オフの %1 倍）</translation>
    </message>
    <message>
        <source>A request may ask for another speculation (tandem.speculation: off, a method or auto); it then runs in a second copy of llama.cpp on the same model file, started on first use and stopped when idle. The model&apos;s weights are shared; each copy adds its own cache.</source>
        <translation>リクエストは別の投機的デコードを指定できます（tandem.speculation：off、手法名、または auto）。その場合、同じモデルファイル上の 2 つ目の llama.cpp で実行されます。初回使用時に起動し、使われないと停止します。モデルの重みは共有され、各コピーは自身のキャッシュ分だけ増えます。</translation>
    </message>
    <message>
        <source>A request did not fit in the context: its prompt has %1 tokens, the context holds %2. Load the model again with a larger context length (Launch… → Context length); agents need 8,192 tokens or more.</source>
        <translation>リクエストがコンテキストに収まりませんでした。プロンプトは %1 トークン、コンテキストは %2 トークンです。より大きなコンテキスト長でモデルを読み込み直してください（起動… → コンテキスト長）。エージェントには 8,192 トークン以上が必要です。</translation>
    </message>
    <message>
        <source>Context: %1 tokens. Claude Code and Codex send 5,000 tokens or more with each request; a request that does not fit is refused and shown here.</source>
        <translation>コンテキスト：%1 トークン。Claude Code と Codex は 1 回のリクエストで 5,000 トークン以上を送ります。収まらないリクエストは拒否され、ここに表示されます。</translation>
    </message>
    <message>
        <source>OpenAI clients (chat completions, Responses)</source>
        <translation>OpenAI クライアント（Chat Completions、Responses）</translation>
    </message>
</context>
<context>
    <name>ServerSwitch</name>
    <message>
        <source>Server: %1</source>
        <extracomment>the switch asked for a start: show the panel once it listens</extracomment>
        <translation>サーバー: %1</translation>
    </message>
    <message>
        <source>Local server</source>
        <translation>ローカルサーバー</translation>
    </message>
    <message>
        <source>Show the address, the key and the requests of the running server</source>
        <translation>実行中のサーバーのアドレス、キー、リクエストを表示します</translation>
    </message>
    <message>
        <source>Serve the loaded model to other programs over OpenAI- and Anthropic-compatible APIs</source>
        <translation>読み込んだモデルを OpenAI・Anthropic 互換 API で他のプログラムに提供します</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>起動中…</translation>
    </message>
    <message>
        <source>The server could not start: %1</source>
        <translation>サーバーを起動できませんでした: %1</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Choose the model cache folder</source>
        <extracomment>the dialog opens this wide where the screen allows (it may be made narrower, down to 680 px)</extracomment>
        <translation>モデルキャッシュのフォルダーを選択</translation>
    </message>
    <message>
        <source>Choose a full path for the model cache, such as {example}.</source>
        <translation>モデルキャッシュには {example} のような完全なパスを指定してください。</translation>
    </message>
    <message>
        <source>The model cache folder cannot be created: {reason}</source>
        <translation>モデルキャッシュのフォルダーを作成できません：{reason}</translation>
    </message>
    <message>
        <source>The model cache folder is not writable: {path}</source>
        <translation>モデルキャッシュのフォルダーに書き込めません：{path}</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>設定</translation>
    </message>
    <message>
        <source>General</source>
        <translation>一般</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>ツール</translation>
    </message>
    <message>
        <source>Model hub</source>
        <translation>モデルハブ</translation>
    </message>
    <message>
        <source>Download from</source>
        <translation>ダウンロード元</translation>
    </message>
    <message>
        <source>Hugging Face endpoint</source>
        <translation>Hugging Face エンドポイント</translation>
    </message>
    <message>
        <source>ModelScope endpoint</source>
        <translation>ModelScope エンドポイント</translation>
    </message>
    <message>
        <source>Default (leave empty), or a mirror such as https://hf-mirror.com</source>
        <translation>既定（空欄）、または https://hf-mirror.com などのミラー</translation>
    </message>
    <message>
        <source>Default (leave empty), or the address of your own ModelScope server</source>
        <translation>既定（空欄のまま）、または独自の ModelScope サーバーのアドレス</translation>
    </message>
    <message>
        <source>Hugging Face token</source>
        <translation>Hugging Face トークン</translation>
    </message>
    <message>
        <source>ModelScope token</source>
        <translation>ModelScope トークン</translation>
    </message>
    <message>
        <source>A token is stored in the system keyring; type to replace it</source>
        <translation>システムのキーリングにトークンが保存されています。入力すると置き換えます</translation>
    </message>
    <message>
        <source>Optional; stored in the system keyring</source>
        <translation>任意。システムのキーリングに保存されます</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Application</source>
        <translation>アプリケーション</translation>
    </message>
    <message>
        <source>Model cache</source>
        <translation>モデルキャッシュ</translation>
    </message>
    <message>
        <source>Default location</source>
        <translation>既定の場所</translation>
    </message>
    <message>
        <source>Tandem&apos;s model entries (links to the downloaded files) go here. The files themselves stay in the Hugging Face or ModelScope cache, shared with other tools, so models already there are found again after a change.</source>
        <translation>Tandem のモデルエントリ（ダウンロード済みファイルへのリンク）をここに保存します。ファイル本体は他のツールと共有する Hugging Face または ModelScope のキャッシュに残るため、変更後も既存のモデルは再び見つかります。</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>参照…</translation>
    </message>
    <message>
        <source>Default engine</source>
        <translation>既定のエンジン</translation>
    </message>
    <message>
        <source>Speculation at start</source>
        <translation>起動時の投機的デコード</translation>
    </message>
    <message>
        <source>Auto (measured on this machine)</source>
        <translation>Auto（このマシンで測定）</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>オフ</translation>
    </message>
    <message>
        <source>What the model loaded at start uses. Auto measures each model once on this machine (a few seconds) and keeps speculation only where it pays; Off decodes plainly.</source>
        <translation>起動時に読み込むモデルで使う設定です。「Auto」はこのマシンで各モデルを一度だけ測定し（数秒）、速くなる場合だけ投機的デコードを使います。「オフ」は通常のデコードです。</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>言語</translation>
    </message>
    <message>
        <source>Learned text</source>
        <translation>学習したテキスト</translation>
    </message>
    <message>
        <source>Forget learned text</source>
        <translation>学習したテキストを忘れる</translation>
    </message>
    <message>
        <source>Suffix decoding (MLX) drafts from your earlier questions and answers, kept on this computer only ({tokens} tokens now). Forgetting deletes them; deleting a conversation deletes what it taught.</source>
        <translation>サフィックスデコーディング（MLX）は以前の質問と回答から下書きします。これらはこのコンピューターにのみ保存されます（現在 {tokens} トークン）。忘れると削除されます。会話を削除すると、その会話から学んだ内容も削除されます。</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>システムの言語</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>外観</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>システムに合わせる</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>ライト</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>ダーク</translation>
    </message>
    <message>
        <source>Light or dark colours; by default they follow the system&apos;s setting</source>
        <translation>明るい配色か暗い配色か。既定ではシステムの設定に合わせます</translation>
    </message>
    <message>
        <source>Local server key</source>
        <translation>ローカルサーバーのキー</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <source>Reading the key…</source>
        <translation>キーを読み込み中…</translation>
    </message>
    <message>
        <source>Clients send it as the API key. Set by TANDEM_API_KEY for this session.</source>
        <translation>クライアントはこれを API キーとして送信します。このセッションでは TANDEM_API_KEY で設定されています。</translation>
    </message>
    <message>
        <source>Clients send it as the API key. Kept in the system keyring.</source>
        <translation>クライアントはこれを API キーとして送信します。システムのキーリングに保存されています。</translation>
    </message>
    <message>
        <source>Clients send it as the API key. No system keyring: a new key is made at each start.</source>
        <translation>クライアントはこれを API キーとして送信します。システムのキーリングがないため、起動のたびに新しいキーが作られます。</translation>
    </message>
    <message>
        <source>Clients send it as the API key.</source>
        <translation>クライアントはこれを API キーとして送信します。</translation>
    </message>
</context>
<context>
    <name>SourceDialog</name>
    <message>
        <source>Source</source>
        <translation>出典</translation>
    </message>
    <message>
        <source>The model was given the whole document; its beginning is shown here.</source>
        <translation>モデルには文書全体が渡されました。ここには冒頭を表示しています。</translation>
    </message>
    <message>
        <source>The model was given this passage with the question.</source>
        <translation>モデルには質問と一緒にこの箇所が渡されました。</translation>
    </message>
    <message>
        <source>Open the document</source>
        <translation>文書を開く</translation>
    </message>
    <message>
        <source>Open the stored copy of {file} with the system&apos;s viewer</source>
        <translation>保存された {file} のコピーをシステムのビューアーで開きます</translation>
    </message>
</context>
<context>
    <name>SourcesPanel</name>
    <message>
        <source>Sources ({n})</source>
        <translation>出典（{n}）</translation>
    </message>
    <message>
        <source>The documents and passages this answer was given</source>
        <translation>この回答に渡された文書と箇所</translation>
    </message>
</context>
<context>
    <name>SpeculationChoice</name>
    <message>
        <source>last answer: {configuration}</source>
        <extracomment>the configuration that wrote the last answer (&quot;&quot; before one) the offered configurations are switched inside the loaded engine (MLX), not a pool&apos;s Auto routes each answer by its kind (a pool with Auto&apos;s router)</extracomment>
        <translation>直前の回答：{configuration}</translation>
    </message>
    <message>
        <source>The configuration that wrote this conversation&apos;s last answer (same text, its own speed)</source>
        <translation>この会話の直前の回答を書いた構成（テキストは同じで、速度だけが異なります）</translation>
    </message>
    <message>
        <source>Speculation:</source>
        <translation>投機:</translation>
    </message>
    <message>
        <source>Speculative decoding for this conversation&apos;s answers. A change applies from the next answer; the text is the same either way, only the speed changes.</source>
        <translation>この会話の回答に使う投機的デコード。変更は次の回答から適用されます。文章は同じで、速度だけが変わります。</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>オフ</translation>
    </message>
    <message>
        <source>no speculation</source>
        <translation>投機なし</translation>
    </message>
    <message>
        <source>Chosen per answer by its kind (prose, code, repeat, agent) among the configurations below, by what was measured on this machine</source>
        <translation>回答ごとに種類（文章、コード、繰り返し、エージェント）に応じて、このマシンでの測定結果をもとに下の構成から選びます</translation>
    </message>
    <message>
        <source>What the model was loaded with: {running}</source>
        <translation>モデルを読み込んだときの設定: {running}</translation>
    </message>
    <message>
        <source>What the loaded model runs; honoured without a reload</source>
        <translation>読み込まれたモデルが実行中の方法。再読み込みなしで使えます</translation>
    </message>
    <message>
        <source>Switched per answer inside the loaded engine, on the same weights: no reload</source>
        <translation>読み込まれたエンジンの中で回答ごとに切り替え、同じ重みを使います：再読み込みは不要です</translation>
    </message>
    <message>
        <source>Started beside the loaded model on its first answer, sharing its memory: no reload</source>
        <translation>最初の回答時に読み込み済みのモデルの横で起動し、そのメモリを共有します：再読み込みは不要です</translation>
    </message>
    <message>
        <source>Needs a reload with {method}: the loaded engine switches per answer only between {offered}</source>
        <translation>{method} で再読み込みが必要です：読み込まれたエンジンが回答ごとに切り替えられるのは {offered} のみです</translation>
    </message>
    <message>
        <source>Needs a reload without speculation: the loaded model runs {running}, which cannot be turned off per answer</source>
        <translation>投機なしで再読み込みが必要です: 読み込まれたモデルは {running} で動いており、回答ごとにオフにはできません</translation>
    </message>
    <message>
        <source>Needs a reload with {method}: the loaded model runs {running}, and speculation cannot change per answer</source>
        <translation>{method} で再読み込みが必要です: 読み込まれたモデルは {running} で動いており、投機は回答ごとに変更できません</translation>
    </message>
</context>
<context>
    <name>StatsDialog</name>
    <message>
        <source>Answer statistics</source>
        <translation>回答の統計</translation>
    </message>
    <message>
        <source>Decode speed</source>
        <translation>デコード速度</translation>
    </message>
    <message>
        <source>{value} tok/s</source>
        <translation>{value} トークン/秒</translation>
    </message>
    <message>
        <source>Time to first token</source>
        <translation>最初のトークンまでの時間</translation>
    </message>
    <message>
        <source>Total time</source>
        <translation>合計時間</translation>
    </message>
    <message>
        <source>Prompt tokens</source>
        <translation>プロンプトのトークン数</translation>
    </message>
    <message>
        <source>Completion tokens</source>
        <translation>生成トークン数</translation>
    </message>
    <message>
        <source>Rounds</source>
        <translation>ラウンド数</translation>
    </message>
    <message>
        <source>Drafted / accepted</source>
        <translation>ドラフト / 受理</translation>
    </message>
    <message>
        <source>Acceptance rate</source>
        <translation>受理率</translation>
    </message>
    <message>
        <source>Mean tokens per drafting round</source>
        <translation>ドラフトラウンドあたりの平均トークン数</translation>
    </message>
    <message>
        <source>Speculation</source>
        <translation>投機</translation>
    </message>
    <message>
        <source>Every configuration on this answer</source>
        <translation>この回答での各構成</translation>
    </message>
    <message>
        <source>Depth (drafted)</source>
        <translation>深さ（ドラフト）</translation>
    </message>
    <message>
        <source>off</source>
        <translation>オフ</translation>
    </message>
    <message>
        <source>Finish reason</source>
        <translation>終了理由</translation>
    </message>
    <message>
        <source>{ms} ms, including encoding the image</source>
        <translation>{ms} ms（画像のエンコードを含む）</translation>
    </message>
    <message>
        <source>{ms} ms, including encoding {n} images</source>
        <translation>{ms} ms（画像 {n} 枚のエンコードを含む）</translation>
    </message>
    <message>
        <source>Acceptance figures</source>
        <translation>受理の数値</translation>
    </message>
    <message>
        <source>The plain speed is the median of this model&apos;s recent answers without speculation on this machine. Approximate, since the prompts differ; `tandem bench` measures both side by side.</source>
        <translation>通常速度は、このマシンでこのモデルが投機的デコードなしで最近生成した回答の中央値です。プロンプトが異なるため概算です。`tandem bench` で両方を並べて測定できます。</translation>
    </message>
    <message>
        <source>Relaunch the model with speculation off and get one answer: Tandem then compares speculative answers with it automatically.</source>
        <translation>投機的デコードをオフにしてモデルを起動し直し、一度回答を得てください。以後 Tandem が投機的デコードの回答と自動で比較します。</translation>
    </message>
    <message>
        <source>Round</source>
        <translation>ラウンド</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>受理</translation>
    </message>
    <message>
        <source>Emitted</source>
        <translation>出力</translation>
    </message>
    <message>
        <source>set by the server</source>
        <translation>サーバーの設定による</translation>
    </message>
    <message>
        <source>replayed</source>
        <translation>再現</translation>
    </message>
    <message>
        <source>estimated</source>
        <translation>推定</translation>
    </message>
    <message>
        <source>{name}: {ratio} ({tps} tok/s, {basis})</source>
        <translation>{name}：{ratio}（{tps} tok/s、{basis}）</translation>
    </message>
    <message>
        <source>← answered</source>
        <translation>← 実際に回答</translation>
    </message>
    <message>
        <source>none (nothing drafted)</source>
        <translation>なし（ドラフトなし）</translation>
    </message>
    <message>
        <source>Plain decode speed, this prompt</source>
        <translation>通常のデコード速度（このプロンプト）</translation>
    </message>
    <message>
        <source>Speedup vs plain, measured</source>
        <translation>通常比の高速化率（測定済み）</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>未測定</translation>
    </message>
    <message>
        <source>Plain decode speed</source>
        <translation>通常のデコード速度</translation>
    </message>
    <message>
        <source>Speedup vs plain</source>
        <translation>通常比の高速化率</translation>
    </message>
    <message>
        <source>Plain answers measured</source>
        <translation>測定した通常回答の数</translation>
    </message>
</context>
<context>
    <name>StatsStrip</name>
    <message>
        <source>Click for per-round details</source>
        <extracomment>where a remote server&apos;s figures come from (&quot;llama.cpp timings&quot;, ...); hidden for local answers why a cut answer stopped (the context is full / Max new tokens); hidden otherwise</extracomment>
        <translation>クリックするとラウンドごとの詳細を表示</translation>
    </message>
    <message>
        <source>{value} tok/s</source>
        <translation>{value} トークン/秒</translation>
    </message>
    <message>
        <source>first token {value}</source>
        <translation>最初のトークン {value}</translation>
    </message>
    <message>
        <source>{n} rounds</source>
        <translation>{n} ラウンド</translation>
    </message>
    <message>
        <source>Speculation was on ({method}) but proposed no draft for this answer: a model-free method drafts only where the text repeats what it has seen, a drafter only where it is sure enough</source>
        <translation>投機は有効（{method}）でしたが、この回答ではドラフトを提案しませんでした。モデル不要の方式は既に見た内容が繰り返される箇所でのみ、ドラフターは十分に確信がある箇所でのみドラフトします</translation>
    </message>
    <message>
        <source>no speculation</source>
        <translation>投機なし</translation>
    </message>
    <message>
        <source>{value} accepted</source>
        <translation>受理 {value}</translation>
    </message>
    <message>
        <source>{value} tokens/round</source>
        <translation>{value} トークン/ラウンド</translation>
    </message>
    <message>
        <source>Share of drafted tokens the model accepted</source>
        <translation>モデルが受理したドラフトトークンの割合</translation>
    </message>
    <message>
        <source>Mean tokens emitted per drafting round: the accepted drafts plus the model&apos;s own token, fewer when the answer ended inside the round</source>
        <translation>ドラフトを行ったラウンドごとの平均出力トークン数：受理されたドラフトにモデル自身の1トークンを加えたもの（回答がラウンド途中で終わった場合はそれより少ない）</translation>
    </message>
    <message>
        <source>Tandem has not seen this model answer without speculation on this machine yet. Click Measure to run this prompt without speculation, or get one plain answer of at least {n} tokens: later answers then show the speedup automatically.</source>
        <translation>Tandem はこのマシンでこのモデルが投機的デコードなしで回答するところをまだ見ていません。「測定」をクリックしてこのプロンプトを投機的デコードなしで実行するか、{n} トークン以上の通常の回答を 1 つ得てください。以降の回答では高速化率が自動で表示されます。</translation>
    </message>
    <message>
        <source>{value}× vs plain, measured</source>
        <translation>通常比 {value}×（測定済み）</translation>
    </message>
    <message>
        <source>Measured: the same prompt without speculation decoded at {plain} tok/s on this machine; this answer at {spec} tok/s.</source>
        <translation>測定済み：同じプロンプトを投機的デコードなしで実行すると、このマシンでのデコード速度は {plain} tok/s、この回答は {spec} tok/s でした。</translation>
    </message>
    <message>
        <source>from {source}</source>
        <translation>出典: {source}</translation>
    </message>
    <message>
        <source>This answer against the same {n} tokens decoded without speculation, one plain step of the model per token, set against this answer&apos;s decode time.</source>
        <translation>この回答と、同じ {n} トークンを投機なしでデコードした場合との比較です。トークンごとにモデルの通常ステップ 1 回として、この回答のデコード時間と比べます。</translation>
    </message>
    <message>
        <source>The plain step was measured during this answer, in its rounds that drafted nothing: another program&apos;s load moves both sides alike.</source>
        <translation>通常ステップはこの回答の中で、ドラフトがなかったラウンドで測定しました。他のプログラムの負荷は両側に同じように効きます。</translation>
    </message>
    <message>
        <source>Each round is priced by what a round of this configuration and depth costs in plain steps on this machine, learned from earlier answers: another program&apos;s load does not move the figure.</source>
        <translation>各ラウンドは、この構成と深さのラウンドがこのマシンで通常ステップ何回分かかるか（以前の回答から学習）で見積もります。他のプログラムの負荷でこの数値は動きません。</translation>
    </message>
    <message>
        <source>The plain step is the model&apos;s, measured in answers a moment before (this configuration&apos;s rounds are not priced yet).</source>
        <translation>通常ステップは少し前の回答で測定したモデルのものです（この構成のラウンドはまだ見積もれていません）。</translation>
    </message>
    <message>
        <source>Includes encoding the image</source>
        <translation>画像のエンコードを含みます</translation>
    </message>
    <message>
        <source>Includes encoding the {n} images</source>
        <translation>画像 {n} 枚のエンコードを含みます</translation>
    </message>
    <message>
        <source>Passes of the model for this answer: {drafting} verified a draft, {plain} gave one token without one</source>
        <translation>この回答でのモデルの処理回数：{drafting} 回はドラフトを検証し、{plain} 回はドラフトなしで1トークンを生成</translation>
    </message>
    <message>
        <source>nothing drafted</source>
        <translation>ドラフトなし</translation>
    </message>
    <message>
        <source>{share} of the answer drafted, {value} accepted</source>
        <translation>回答の {share} がドラフト由来、受理 {value}</translation>
    </message>
    <message>
        <source>{share} of the answer&apos;s tokens came from accepted drafts: for a model-free method, text it copied from the conversation and its documents</source>
        <translation>回答のトークンの {share} は受理されたドラフトから来ています。モデル不要の方式では、会話とその文書から写したテキストです</translation>
    </message>
    <message>
        <source>Per round: bar height = the depth drafted in that round, green = accepted</source>
        <translation>ラウンドごと：棒の高さ = そのラウンドのドラフトの深さ、緑 = 受理</translation>
    </message>
    <message>
        <source>Measuring…</source>
        <translation>測定中…</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>測定</translation>
    </message>
    <message>
        <source>Run this prompt again without speculation (same settings, on a plain copy of the model loaded for the measurement) and show the direct speedup of this answer</source>
        <translation>投機的デコードなしでこのプロンプトをもう一度実行し（同じ設定、測定用に読み込んだモデルの通常のコピーで）、この回答の直接の高速化率を表示します</translation>
    </message>
    <message>
        <source>This answer drafted nothing: every token was decoded as without speculation, so it claims no speedup.</source>
        <translation>この回答はドラフトがありませんでした。すべてのトークンが投機なしと同じようにデコードされたため、高速化はありません。</translation>
    </message>
    <message>
        <source>speedup: not measured</source>
        <translation>高速化率：未測定</translation>
    </message>
    <message>
        <source>{value}× vs plain</source>
        <translation>通常比 {value}×</translation>
    </message>
    <message>
        <source>Decode speed compared with this model without speculation on this machine: {baseline} tok/s, the median of its recent plain answers (samples: {n}). Approximate, since the prompts differ; `tandem bench` measures both side by side.</source>
        <translation>このマシンで投機的デコードなしのこのモデルとデコード速度を比較しています：{baseline} tok/s（最近の通常回答の中央値、サンプル数：{n}）。プロンプトが異なるため概算です。`tandem bench` で両方を並べて測定できます。</translation>
    </message>
    <message>
        <source>Speculation is slower than plain decoding here: try fewer draft tokens per round, or launch the model without speculation.</source>
        <translation>ここでは投機的デコードのほうが通常のデコードより遅くなっています。1 ラウンドあたりのドラフトトークン数を減らすか、投機的デコードなしでモデルを起動してください。</translation>
    </message>
</context>
<context>
    <name>Thumbnail</name>
    <message>
        <source>Click to enlarge</source>
        <translation>クリックで拡大</translation>
    </message>
    <message>
        <source>Remove this image</source>
        <translation>この画像を外す</translation>
    </message>
</context>
<context>
    <name>ToolCallBlock</name>
    <message>
        <source>Tool call: {name}</source>
        <extracomment>what a block can say of its call: waiting for the user, running, or how it ended the one line of a call that did not go well (&quot;&quot; otherwise; the answer shows it)</extracomment>
        <translation>ツール呼び出し: {name}</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>許可</translation>
    </message>
    <message>
        <source>Run this call once</source>
        <translation>この呼び出しを一度だけ実行します</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>拒否</translation>
    </message>
    <message>
        <source>Do not run it; the answer ends here</source>
        <translation>実行しません。回答はここで終わります</translation>
    </message>
    <message>
        <source>Always allow</source>
        <translation>常に許可</translation>
    </message>
    <message>
        <source>Run it, and run this tool without asking from now on</source>
        <translation>実行し、今後このツールは確認せずに実行します</translation>
    </message>
    <message>
        <source>Waiting for your approval.</source>
        <translation>許可を待っています。</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>実行中…</translation>
    </message>
    <message>
        <source>Ran; its result is below.</source>
        <translation>実行しました。結果は下にあります。</translation>
    </message>
</context>
<context>
    <name>ToolsPage</name>
    <message>
        <source>The tool servers could not be started</source>
        <translation>ツールサーバーを起動できませんでした</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>起動中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>off</source>
        <translation>オフ</translation>
    </message>
    <message>
        <source>failed: {reason}</source>
        <translation>失敗: {reason}</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>オフ</translation>
    </message>
    <message>
        <source>Ask every time</source>
        <translation>毎回確認</translation>
    </message>
    <message>
        <source>Always allow</source>
        <translation>常に許可</translation>
    </message>
    <message>
        <source>Never offered to the model</source>
        <translation>モデルに提供しません</translation>
    </message>
    <message>
        <source>Each call waits for your approval</source>
        <translation>呼び出しごとに許可を待ちます</translation>
    </message>
    <message>
        <source>Calls run without asking</source>
        <translation>確認せずに呼び出しを実行します</translation>
    </message>
    <message>
        <source>Import mcpServers JSON</source>
        <translation>mcpServers JSON をインポート</translation>
    </message>
    <message>
        <source>JSON files (*.json);;All files (*)</source>
        <translation>JSON ファイル (*.json);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Export mcpServers JSON</source>
        <translation>mcpServers JSON をエクスポート</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON ファイル (*.json)</translation>
    </message>
    <message>
        <source>Exported to {path}.</source>
        <translation>{path} にエクスポートしました。</translation>
    </message>
    <message>
        <source>Left empty: {names}.</source>
        <translation>空のまま: {names}。</translation>
    </message>
    <message>
        <source>MCP servers whose tools the model may call in the chat, each call with your approval unless its rule is Always allow; a tool that is Off is never offered to the model. Changes are saved at once; secrets go to the keyring.</source>
        <translation>チャットでモデルがツールを呼び出せる MCP サーバーです。ルールが「常に許可」でない限り、呼び出しごとに許可が必要です。「オフ」のツールはモデルに提供されません。変更はすぐに保存され、秘密情報はキーリングに保管されます。</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>使用</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>説明</translation>
    </message>
    <message>
        <source>Server / tool</source>
        <translation>サーバー / ツール</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Import mcpServers JSON…</source>
        <translation>mcpServers JSON をインポート…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>エクスポート…</translation>
    </message>
    <message>
        <source>Add server…</source>
        <translation>サーバーを追加…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
</context>
<context>
    <name>VerifyDialog</name>
    <message>
        <source>The check could not run</source>
        <extracomment>the prompts done so far in a running check, shown as they come</extracomment>
        <translation>検証を実行できませんでした</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>停止中…</translation>
    </message>
    <message>
        <source>Baseline: {message}</source>
        <translation>ベースライン：{message}</translation>
    </message>
    <message>
        <source>Endpoint: {message}</source>
        <translation>エンドポイント：{message}</translation>
    </message>
    <message>
        <source>Prose</source>
        <translation>文章</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>コード</translation>
    </message>
    <message>
        <source>Chinese</source>
        <translation>中国語</translation>
    </message>
    <message>
        <source>List</source>
        <translation>リスト</translation>
    </message>
    <message>
        <source>Arithmetic</source>
        <translation>計算</translation>
    </message>
    <message>
        <source>Prompt {i} of {n} ({kind}): the baseline answers, then the endpoint…</source>
        <translation>プロンプト {i}/{n}（{kind}）：ベースラインが回答し、次にエンドポイントが回答します…</translation>
    </message>
    <message>
        <source>Connecting to both servers…</source>
        <translation>両方のサーバーに接続しています…</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>停止しました。</translation>
    </message>
    <message>
        <source>EXACT: the endpoint&apos;s answers match the baseline&apos;s on all {n} prompts.</source>
        <translation>EXACT：全 {n} 個のプロンプトで、エンドポイントの回答はベースラインと一致しました。</translation>
    </message>
    <message>
        <source>TOP_K_MATCH: {k} of {n} prompts differ at a near-tie (each token among the other side&apos;s top candidates), the others match exactly.</source>
        <translation>TOP_K_MATCH：{n} 個中 {k} 個のプロンプトがほぼ同点の箇所で異なります（どちらのトークンも相手側の上位候補に含まれます）。残りは完全に一致しました。</translation>
    </message>
    <message>
        <source>FAIL: {k} of {n} prompts diverge from the baseline. Check that both servers run the same model file and settings; if they do, the drafter changes the output.</source>
        <translation>FAIL：{n} 個中 {k} 個のプロンプトがベースラインと食い違いました。両方のサーバーが同じモデルファイルと設定で動いているか確認してください。同じなら、ドラフターが出力を変えています。</translation>
    </message>
    <message>
        <source>The baseline reported drafted tokens: it should run without a drafter, or this check compares two speculative servers.</source>
        <translation>ベースラインがドラフトトークンを報告しました。ドラフターなしで動かしてください。そうでないと、この検証は投機的デコードのサーバー同士を比べることになります。</translation>
    </message>
    <message>
        <source>The endpoint does not report acceptance, so Tandem cannot tell whether it drafted.</source>
        <translation>エンドポイントは受理率を報告しないため、ドラフトしたかどうか Tandem には分かりません。</translation>
    </message>
    <message>
        <source>The endpoint reported no drafted tokens: it seems to run without a drafter, so this check compared two plain servers.</source>
        <translation>エンドポイントはドラフトトークンを報告しませんでした。ドラフターなしで動いているようなので、この検証は通常のサーバー同士を比べたことになります。</translation>
    </message>
    <message>
        <source>not reported</source>
        <translation>未報告</translation>
    </message>
    <message>
        <source>The endpoint drafted {drafted} tokens and {accepted} were accepted ({source}).</source>
        <translation>エンドポイントは {drafted} 個のトークンをドラフトし、{accepted} 個が受理されました（{source}）。</translation>
    </message>
    <message>
        <source>(the baseline&apos;s answer ended)</source>
        <translation>（ベースラインの回答はここで終了）</translation>
    </message>
    <message>
        <source>EXACT: the same text ({n} tokens)</source>
        <translation>EXACT：同じテキスト（{n} トークン）</translation>
    </message>
    <message>
        <source>EXACT: the same {n} tokens</source>
        <translation>EXACT：同じ {n} トークン</translation>
    </message>
    <message>
        <source>TOP_K_MATCH at token {pos}: baseline {off}, endpoint {on}; log-probability gap {gap}</source>
        <translation>TOP_K_MATCH（トークン {pos}）：ベースライン {off}、エンドポイント {on}、対数確率の差 {gap}</translation>
    </message>
    <message>
        <source>FAIL at token {pos}: baseline {off}, endpoint {on} (text compared: the server gave no token ids)</source>
        <translation>FAIL（トークン {pos}）：ベースライン {off}、エンドポイント {on}（テキストで比較：サーバーがトークン ID を返しませんでした）</translation>
    </message>
    <message>
        <source>(the endpoint&apos;s answer ended)</source>
        <translation>（エンドポイントの回答はここで終了）</translation>
    </message>
    <message>
        <source>not known</source>
        <translation>不明</translation>
    </message>
    <message>
        <source>FAIL at token {pos}: baseline {off} (log-probability {off_lp}), endpoint {on} (log-probability {on_lp} at the baseline)</source>
        <translation>FAIL（トークン {pos}）：ベースライン {off}（対数確率 {off_lp}）、エンドポイント {on}（ベースラインでの対数確率 {on_lp}）</translation>
    </message>
    <message>
        <source>Model: {model}</source>
        <translation>モデル：{model}</translation>
    </message>
    <message>
        <source>Text compared: the servers gave no token ids.</source>
        <translation>テキストで比較しました：サーバーがトークン ID を返しませんでした。</translation>
    </message>
    <message>
        <source>Verify the drafter&apos;s output</source>
        <translation>ドラフターの出力を検証</translation>
    </message>
    <message>
        <source>Greedy answers of {endpoint} (with its drafter) compared with {baseline} (the same model without a drafter): {n} prompts of different kinds, up to {max} tokens each. Speculative decoding must not change greedy output.</source>
        <translation>{endpoint}（ドラフターあり）と {baseline}（同じモデル、ドラフターなし）の貪欲デコードの回答を比べます。種類の異なる {n} 個のプロンプト、各最大 {max} トークン。投機的デコードで貪欲デコードの出力が変わってはいけません。</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Run again</source>
        <translation>もう一度実行</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
</context>
<context>
    <name>_SourceRow</name>
    <message>
        <source>Show this passage</source>
        <translation>この箇所を表示</translation>
    </message>
</context>
</TS>
