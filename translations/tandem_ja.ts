<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja">
    <context>
        <name>BrowserPage</name>
        <message>
            <source>This entry is invalid and was skipped: {reason}</source>
            <translation>この項目は無効なためスキップされました：{reason}</translation>
        </message>
        <message>
            <source>Models</source>
            <translation>モデル</translation>
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
            <translation>ドラフトあり</translation>
        </message>
        <message>
            <source>Only models that declare a drafter for speculative decoding</source>
            <translation>投機的デコード用のドラフトモデルを宣言しているモデルのみ</translation>
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
            <source>with its drafter</source>
            <translation>ドラフトも含める</translation>
        </message>
        <message>
            <source>Also download the recommended drafter quantization</source>
            <translation>推奨のドラフトモデル量子化も併せてダウンロード</translation>
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
        <name>ChatController</name>
        <message>
            <source>New chat</source>
            <translation>新しいチャット</translation>
        </message>
        <message>
            <source>No model loaded</source>
            <translation>モデル未読み込み</translation>
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
            <source>The answer could not be generated</source>
            <translation>回答を生成できませんでした</translation>
        </message>
    </context>
    <context>
        <name>ChatView</name>
        <message>
            <source>Highlight drafted tokens</source>
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
    </context>
    <context>
        <name>Composer</name>
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
    </context>
    <context>
        <name>DeleteDialog</name>
        <message>
            <source>Also deletes the model and drafter files from the {hub} cache, unless another Tandem model still uses them. Other tools that share this cache (the hf command, Python scripts, other apps) lose these files and must download them again.</source>
            <translation>モデルとドラフトのファイルも {hub} キャッシュから削除します（他の Tandem モデルがまだ使っているファイルは除きます）。このキャッシュを共有する他のツール（hf コマンド、Python スクリプト、他のアプリ）はこれらのファイルを失い、再ダウンロードが必要になります。</translation>
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
            <source>Tandem's entry for this model and its drafter is removed. The downloaded files stay in the {hub} cache, where other tools can still use them.</source>
            <translation>このモデルとそのドラフトの Tandem のエントリを削除します。ダウンロード済みのファイルは {hub} キャッシュに残り、他のツールから引き続き使えます。</translation>
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
            <source>Also free disk space</source>
            <translation>ディスク容量も解放する</translation>
        </message>
    </context>
    <context>
        <name>DepthField</name>
        <message>
            <source>Enter a whole number greater than zero, or leave it empty.</source>
            <extracomment>(role, quantization) pairs not downloaded yet; the caller queues them before loading.</extracomment>
            <translation>0 より大きい整数を入力するか、空欄のままにしてください。</translation>
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
        <name>EngineLoader</name>
        <message>
            <source>Locating model files</source>
            <translation>モデルファイルを探しています</translation>
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
            <translation>上記のパッケージをインストールしてから Tandem を再起動してください。</translation>
        </message>
        <message>
            <source>Check the model entry; the message names the field to fix.</source>
            <translation>モデル定義を確認してください。メッセージに修正すべき項目が示されています。</translation>
        </message>
        <message>
            <source>Check free disk space and permissions, then retry.</source>
            <translation>ディスクの空き容量と権限を確認してから再試行してください。</translation>
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
        <name>LaunchDialog</name>
        <message>
            <source>This engine is not available here: {reason}</source>
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
            <translation>ドラフトモデルを使う</translation>
        </message>
        <message>
            <source>The drafter ({quant}) is not downloaded yet. Launching queues its download, then loads the model with it.</source>
            <translation>ドラフトモデル（{quant}）はまだダウンロードされていません。起動するとダウンロードを予約し、完了後にモデルと一緒に読み込みます。</translation>
        </message>
        <message>
            <source>default</source>
            <translation>既定</translation>
        </message>
        <message>
            <source>This is a mixture-of-experts model: it computes only part of itself per token, so a drafter may cost more than it saves. Compare the tokens/s in the statistics strip with speculation on and off.</source>
            <translation>これは Mixture-of-Experts モデルです。トークンごとにモデルの一部しか計算しないため、ドラフトモデルのコストが効果を上回ることがあります。投機のオンとオフで統計バーのトークン/秒を比べてください。</translation>
        </message>
        <message>
            <source>Off</source>
            <translation>オフ</translation>
        </message>
        <message>
            <source>Turn the drafter off to use a model-free method.</source>
            <translation>モデル不要の方式を使うには、ドラフトモデルをオフにしてください。</translation>
        </message>
        <message>
            <source>engine default</source>
            <translation>エンジン既定値</translation>
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
            <source>engine default: {value}</source>
            <translation>エンジン既定 {value}</translation>
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
            <source>On MLX this is the drafter's block size minus the verified token; empty uses the depth the drafter was trained for.</source>
            <translation>MLX では、ドラフトモデルのブロックサイズから検証済みトークンを引いた値です。空欄ならドラフトモデルの学習時の深さを使います。</translation>
        </message>
        <message>
            <source>On llama.cpp n-gram methods this is the longest draft taken from earlier text in a round.</source>
            <translation>llama.cpp の n-gram 方式では、1 ラウンドで前のテキストから取る最長のドラフトです。</translation>
        </message>
        <message>
            <source>On llama.cpp this is the drafter's maximum draft length (draft.n_max); a round may draft fewer when the drafter is unsure.</source>
            <translation>llama.cpp ではドラフトモデルの最大ドラフト長（draft.n_max）です。ドラフトモデルに確信がないときは、1 ラウンドの提案数が少なくなることがあります。</translation>
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
            <source>the drafter's trained depth</source>
            <translation>ドラフトモデルの学習時の深さ</translation>
        </message>
        <message>
            <source>llama.cpp's own default</source>
            <translation>llama.cpp 自体の既定値</translation>
        </message>
        <message>
            <source>Launch {name}</source>
            <translation>{name} を起動</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>モデル</translation>
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
            <source>Only engines that can run this model's format are listed.</source>
            <translation>このモデルの形式を実行できるエンジンだけを表示しています。</translation>
        </message>
        <message>
            <source>Speculative Decoding</source>
            <translation>投機的デコード</translation>
        </message>
        <message>
            <source>Speculation can be slower when the drafter is expensive relative to the model, for example with mixture-of-experts models. Tandem measures every answer: the statistics strip shows tokens/s and how many drafted tokens were accepted, so you can see whether it pays.</source>
            <translation>ドラフトモデルのコストがモデルに比べて大きい場合（たとえば Mixture-of-Experts モデル）、投機はかえって遅くなることがあります。Tandem はすべての回答を計測し、統計バーにトークン/秒と受理されたドラフトトークン数を表示するので、効果があるかどうかを確認できます。</translation>
        </message>
        <message>
            <source>Runs a small drafter beside the model. The drafter proposes several tokens per round and the model verifies them in one pass: the answer is identical, decoding is faster. Turning this on downloads an extra drafter checkpoint.</source>
            <translation>モデルの横で小さなドラフトモデルを動かします。ドラフトモデルが 1 ラウンドごとに複数のトークンを提案し、モデルが一度に検証します。回答は同一のまま、デコードが速くなります。有効にすると、ドラフトモデルのチェックポイントを追加でダウンロードします。</translation>
        </message>
        <message>
            <source>Drafter Quantization</source>
            <translation>ドラフトモデルの量子化</translation>
        </message>
        <message>
            <source>Defaults to the first available</source>
            <translation>既定では最初の利用可能な項目</translation>
        </message>
        <message>
            <source>The drafter is small, so quantizing it saves little memory but lowers how many of its tokens are accepted. An unquantized drafter is recommended even for a quantized model.</source>
            <translation>ドラフトモデルは小さいため、量子化してもメモリはほとんど節約できず、トークンの受理率が下がります。量子化されたモデルであっても、量子化していないドラフトモデルをおすすめします。</translation>
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
            <source>Launch</source>
            <translation>起動</translation>
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
            <source>New chat</source>
            <translation>新しいチャット</translation>
        </message>
        <message>
            <source>Rename</source>
            <translation>名前を変更</translation>
        </message>
        <message>
            <source>Delete conversation</source>
            <translation>会話を削除</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>キャンセル</translation>
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
            <source>Downloading; the model loads when the download finishes.</source>
            <translation>ダウンロード中です。完了するとモデルを読み込みます。</translation>
        </message>
        <message>
            <source>Loading {name}…</source>
            <translation>{name} を読み込み中…</translation>
        </message>
        <message>
            <source>The default model is not available</source>
            <translation>既定のモデルを利用できません</translation>
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
            <source>Loading cancelled</source>
            <translation>読み込みをキャンセルしました</translation>
        </message>
        <message>
            <source>The download could not be queued</source>
            <translation>ダウンロードを予約できませんでした</translation>
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
            <source>Check the network and the hub settings, then press Retry.</source>
            <translation>ネットワークとハブの設定を確認してから「再試行」を押してください。</translation>
        </message>
        <message>
            <source>The files could not be deleted</source>
            <translation>ファイルを削除できませんでした</translation>
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
        <message>
            <source>Settings could not be saved</source>
            <translation>設定を保存できませんでした</translation>
        </message>
    </context>
    <context>
        <name>MessageBubble</name>
        <message>
            <source>You</source>
            <translation>あなた</translation>
        </message>
        <message>
            <source>Assistant</source>
            <translation>アシスタント</translation>
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
            <source>Copy</source>
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
        <name>RegistryModel</name>
        <message>
            <source>Downloaded</source>
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
            <translation>ドラフト</translation>
        </message>
        <message>
            <source>Has a drafter for speculative decoding</source>
            <translation>投機的デコード用のドラフトモデルあり</translation>
        </message>
        <message>
            <source>No drafter</source>
            <translation>ドラフトモデルなし</translation>
        </message>
        <message>
            <source>invalid</source>
            <translation>無効</translation>
        </message>
        <message>
            <source>Variant</source>
            <extracomment>Size buckets offered by the filter (billions of parameters, half-open ranges).</extracomment>
            <translation>バリアント</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>状態</translation>
        </message>
        <message>
            <source>A small model that proposes tokens for this one to verify; used by speculative decoding.</source>
            <translation>このモデルが検証するトークンを提案する小さなモデルで、投機的デコードに使われます。</translation>
        </message>
        <message>
            <source>with drafter</source>
            <translation>ドラフトあり</translation>
        </message>
        <message>
            <source>Drafter quantizations</source>
            <translation>ドラフトモデルの量子化</translation>
        </message>
        <message>
            <source>Model quantizations</source>
            <translation>モデルの量子化</translation>
        </message>
        <message>
            <source>default</source>
            <translation>既定</translation>
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
        <name>SettingsDialog</name>
        <message>
            <source>Choose the model cache folder</source>
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
            <source>Tandem's model entries (links to the downloaded files) go here. The files themselves stay in the Hugging Face or ModelScope cache, shared with other tools, so models already there are found again after a change.</source>
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
            <source>Language</source>
            <translation>言語</translation>
        </message>
        <message>
            <source>System language</source>
            <translation>システムの言語</translation>
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
            <source>Mean tokens per round</source>
            <translation>ラウンドあたりの平均トークン数</translation>
        </message>
        <message>
            <source>Speculation</source>
            <translation>投機</translation>
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
            <source>The plain speed is the median of this model's recent answers without speculation on this machine. Approximate, since the prompts differ; `tandem bench` measures both side by side.</source>
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
            <source>Drafted</source>
            <translation>ドラフト</translation>
        </message>
        <message>
            <source>Accepted</source>
            <translation>受理</translation>
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
            <extracomment>a speedup inside [SLOWER, FASTER] is "about the same"; below SLOWER the strip warns</extracomment>
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
            <source>Tokens produced per verification round: accepted drafts plus one</source>
            <translation>検証ラウンドあたりに出力されたトークン数：受理されたドラフト + 1</translation>
        </message>
        <message>
            <source>Per-round acceptance: grey = drafted, green = accepted</source>
            <translation>ラウンドごとの受理：灰色 = ドラフト、緑 = 受理</translation>
        </message>
        <message>
            <source>speedup: not measured</source>
            <translation>高速化率：未測定</translation>
        </message>
        <message>
            <source>Tandem has not seen this model answer without speculation on this machine yet. Relaunch the model with speculation off and get one answer of at least {n} tokens, then load it with speculation again: later answers show the speedup automatically.</source>
            <translation>Tandem はこのマシンでこのモデルが投機的デコードなしで回答するところをまだ見ていません。投機的デコードをオフにしてモデルを起動し直し、{n} トークン以上の回答を一度得てから、投機的デコードをオンにして読み込み直してください。以後の回答に高速化率が自動で表示されます。</translation>
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
</TS>
