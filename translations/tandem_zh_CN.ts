<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
    <context>
        <name>BrowserPage</name>
        <message>
            <source>This entry is invalid and was skipped: {reason}</source>
            <translation>此条目无效，已跳过：{reason}</translation>
        </message>
        <message>
            <source>Models</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>Search models</source>
            <translation>搜索模型</translation>
        </message>
        <message>
            <source>All formats</source>
            <translation>所有格式</translation>
        </message>
        <message>
            <source>All sizes</source>
            <translation>所有规模</translation>
        </message>
        <message>
            <source>Under 1B</source>
            <translation>1B 以下</translation>
        </message>
        <message>
            <source>1B to 5B</source>
            <translation>1B 到 5B</translation>
        </message>
        <message>
            <source>5B to 15B</source>
            <translation>5B 到 15B</translation>
        </message>
        <message>
            <source>Over 15B</source>
            <translation>15B 以上</translation>
        </message>
        <message>
            <source>Has drafter</source>
            <translation>有草稿模型</translation>
        </message>
        <message>
            <source>Only models that declare a drafter for speculative decoding</source>
            <translation>只显示声明了推测解码草稿模型的模型</translation>
        </message>
        <message>
            <source>Downloaded</source>
            <translation>已下载</translation>
        </message>
        <message>
            <source>Download</source>
            <translation>下载</translation>
        </message>
        <message>
            <source>with its drafter</source>
            <translation>连同草稿模型</translation>
        </message>
        <message>
            <source>Also download the recommended drafter quantization</source>
            <translation>同时下载推荐的草稿模型量化版本</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>删除</translation>
        </message>
        <message>
            <source>Launch…</source>
            <translation>启动…</translation>
        </message>
        <message>
            <source>● downloaded   ◐ partly downloaded   ○ not downloaded</source>
            <translation>● 已下载   ◐ 部分下载   ○ 未下载</translation>
        </message>
    </context>
    <context>
        <name>ChatController</name>
        <message>
            <source>New chat</source>
            <translation>新对话</translation>
        </message>
        <message>
            <source>No model loaded</source>
            <translation>未加载模型</translation>
        </message>
        <message>
            <source>No model is loaded.</source>
            <translation>尚未加载模型。</translation>
        </message>
        <message>
            <source>Load a model from the Models page, then send again.</source>
            <translation>请先在“模型”页面加载模型，然后重新发送。</translation>
        </message>
        <message>
            <source>The answer could not be generated</source>
            <translation>无法生成回答</translation>
        </message>
    </context>
    <context>
        <name>ChatView</name>
        <message>
            <source>Highlight drafted tokens</source>
            <translation>高亮草稿 Token</translation>
        </message>
        <message>
            <source>Shade the text that came from accepted drafts: the model verified it instead of producing it one token at a time.</source>
            <translation>为来自已接受草稿的文本加底色：这些文本由模型一次性验证，而不是逐个 Token 生成。</translation>
        </message>
        <message>
            <source>Sampling</source>
            <translation>采样</translation>
        </message>
        <message>
            <source>System prompt and sampling settings of this conversation</source>
            <translation>此对话的系统提示词和采样设置</translation>
        </message>
        <message>
            <source>Ask anything. Answers stream here with their speed and acceptance statistics.</source>
            <translation>随便问点什么。回答会在这里逐字显示，并附带速度和接受率统计。</translation>
        </message>
    </context>
    <context>
        <name>Composer</name>
        <message>
            <source>Message the model (Enter to send, Shift+Enter for a new line)</source>
            <translation>给模型发消息（Enter 发送，Shift+Enter 换行）</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>Send</source>
            <translation>发送</translation>
        </message>
    </context>
    <context>
        <name>DeleteDialog</name>
        <message>
            <source>Also deletes the model and drafter files from the {hub} cache, unless another Tandem model still uses them. Other tools that share this cache (the hf command, Python scripts, other apps) lose these files and must download them again.</source>
            <translation>同时从 {hub} 缓存中删除模型和草稿模型的文件（仍被其他 Tandem 模型使用的文件除外）。共享此缓存的其他工具（hf 命令、Python 脚本、其他应用）将失去这些文件，需要重新下载。</translation>
        </message>
        <message>
            <source>Delete files</source>
            <translation>删除文件</translation>
        </message>
        <message>
            <source>Remove from Tandem</source>
            <translation>从 Tandem 中移除</translation>
        </message>
        <message>
            <source>Delete model</source>
            <translation>删除模型</translation>
        </message>
        <message>
            <source>Remove {model} from Tandem?</source>
            <translation>要从 Tandem 中移除 {model} 吗？</translation>
        </message>
        <message>
            <source>Tandem's entry for this model and its drafter is removed. The downloaded files stay in the {hub} cache, where other tools can still use them.</source>
            <translation>将移除 Tandem 中此模型及其草稿模型的条目。已下载的文件仍保留在 {hub} 缓存中，其他工具仍可使用。</translation>
        </message>
        <message>
            <source>Tandem found this model in the {hub} cache (another tool downloaded it) and has no entry of its own to remove. Choose “Also free disk space” to delete the files.</source>
            <translation>Tandem 在 {hub} 缓存中找到了此模型（由其他工具下载），自身没有可移除的条目。要删除文件，请选择“同时释放磁盘空间”。</translation>
        </message>
        <message>
            <source>The files take {size}.</source>
            <translation>这些文件占用 {size}。</translation>
        </message>
        <message>
            <source>Also free disk space</source>
            <translation>同时释放磁盘空间</translation>
        </message>
    </context>
    <context>
        <name>DepthField</name>
        <message>
            <source>Enter a whole number greater than zero, or leave it empty.</source>
            <extracomment>(role, quantization) pairs not downloaded yet; the caller queues them before loading.</extracomment>
            <translation>请输入大于零的整数，或留空。</translation>
        </message>
    </context>
    <context>
        <name>DownloadsModel</name>
        <message>
            <source>Queued</source>
            <translation>排队中</translation>
        </message>
        <message>
            <source>Downloading</source>
            <translation>下载中</translation>
        </message>
        <message>
            <source>Finished</source>
            <translation>已完成</translation>
        </message>
        <message>
            <source>Failed</source>
            <translation>失败</translation>
        </message>
        <message>
            <source>Cancelled</source>
            <translation>已取消</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>State</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>Progress</source>
            <translation>进度</translation>
        </message>
        <message>
            <source>Rate</source>
            <translation>速度</translation>
        </message>
        <message>
            <source>Time left</source>
            <translation>剩余时间</translation>
        </message>
    </context>
    <context>
        <name>DownloadsPage</name>
        <message>
            <source>Downloads</source>
            <translation>下载</translation>
        </message>
        <message>
            <source>No downloads yet. Pick a model on the Models page and press Download.</source>
            <translation>还没有下载。在“模型”页面选择一个模型，然后点击“下载”。</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>Retry</source>
            <translation>重试</translation>
        </message>
        <message>
            <source>Open folder</source>
            <translation>打开文件夹</translation>
        </message>
    </context>
    <context>
        <name>EngineLoader</name>
        <message>
            <source>Locating model files</source>
            <translation>正在定位模型文件</translation>
        </message>
    </context>
    <context>
        <name>ErrorBanner</name>
        <message>
            <source>Details</source>
            <translation>详情</translation>
        </message>
        <message>
            <source>Dismiss</source>
            <translation>关闭</translation>
        </message>
    </context>
    <context>
        <name>Errors</name>
        <message>
            <source>Something went wrong</source>
            <translation>出现问题</translation>
        </message>
        <message>
            <source>Correct the speculative decoding settings and try again.</source>
            <translation>请修正推测解码设置后重试。</translation>
        </message>
        <message>
            <source>Install the package named above, then restart Tandem.</source>
            <translation>请安装上面提到的软件包，然后重启 Tandem。</translation>
        </message>
        <message>
            <source>Check the model entry; the message names the field to fix.</source>
            <translation>请检查模型条目；消息中指出了需要修改的字段。</translation>
        </message>
        <message>
            <source>Check free disk space and permissions, then retry.</source>
            <translation>请检查磁盘剩余空间和权限，然后重试。</translation>
        </message>
        <message>
            <source>Unexpected error</source>
            <translation>意外错误</translation>
        </message>
        <message>
            <source>Tandem keeps running. If this repeats, report it with the details below.</source>
            <translation>Tandem 仍在运行。如果问题反复出现，请附上下面的详情进行反馈。</translation>
        </message>
    </context>
    <context>
        <name>LaunchDialog</name>
        <message>
            <source>This engine is not available here: {reason}</source>
            <translation>此引擎在这里不可用：{reason}</translation>
        </message>
        <message>
            <source>{quant} is not downloaded yet; launching queues its download first.</source>
            <translation>{quant} 尚未下载；启动时会先将其加入下载队列。</translation>
        </message>
        <message>
            <source>Enable MTP</source>
            <translation>开启 MTP</translation>
        </message>
        <message>
            <source>Use the drafter model</source>
            <translation>使用草稿模型</translation>
        </message>
        <message>
            <source>The drafter ({quant}) is not downloaded yet. Launching queues its download, then loads the model with it.</source>
            <translation>草稿模型（{quant}）尚未下载。启动时会先将其加入下载队列，下载完成后再与模型一起加载。</translation>
        </message>
        <message>
            <source>default</source>
            <translation>默认</translation>
        </message>
        <message>
            <source>This is a mixture-of-experts model: it computes only part of itself per token, so a drafter may cost more than it saves. Compare the tokens/s in the statistics strip with speculation on and off.</source>
            <translation>这是混合专家模型：每个 Token 只计算自身的一部分，因此草稿模型的开销可能大于收益。请在统计条中比较开启和关闭推测时的 Token/秒。</translation>
        </message>
        <message>
            <source>Off</source>
            <translation>关闭</translation>
        </message>
        <message>
            <source>Turn the drafter off to use a model-free method.</source>
            <translation>关闭草稿模型后才能使用无模型方法。</translation>
        </message>
        <message>
            <source>engine default</source>
            <translation>引擎默认值</translation>
        </message>
        <message>
            <source>{quant} (cached)</source>
            <translation>{quant}（已缓存）</translation>
        </message>
        <message>
            <source>{quant} (partial)</source>
            <translation>{quant}（部分）</translation>
        </message>
        <message>
            <source>engine default: {value}</source>
            <translation>引擎默认 {value}</translation>
        </message>
        <message>
            <source>Tokens per round: how many tokens are drafted before the model verifies them. The model adds one token of its own every round, so a round yields at most this many plus one. Leave empty for the engine default.</source>
            <translation>每轮 Token 数：模型验证之前起草的 Token 数量。模型每轮还会自己生成一个 Token，因此每轮最多产出此数量加一。留空则使用引擎默认值。</translation>
        </message>
        <message>
            <source>On MLX the Gemma 4 assistant is trained on blocks of {block} tokens that include the verified token, so it drafts {value} per round by default.</source>
            <translation>在 MLX 上，Gemma 4 助手模型按包含已验证 Token 在内的 {block} 个 Token 的块训练，因此默认每轮起草 {value} 个。</translation>
        </message>
        <message>
            <source>On MLX this is the drafter's block size minus the verified token; empty uses the depth the drafter was trained for.</source>
            <translation>在 MLX 上，此值为草稿模型的块大小减去已验证的 Token；留空则使用草稿模型训练时的深度。</translation>
        </message>
        <message>
            <source>On llama.cpp n-gram methods this is the longest draft taken from earlier text in a round.</source>
            <translation>在 llama.cpp 的 n-gram 方法中，此值为每轮从先前文本中取得的最长草稿。</translation>
        </message>
        <message>
            <source>On llama.cpp this is the drafter's maximum draft length (draft.n_max); a round may draft fewer when the drafter is unsure.</source>
            <translation>在 llama.cpp 上，这是草稿模型的最大草稿长度（draft.n_max）；草稿模型不确定时，一轮可能起草更少。</translation>
        </message>
        <message>
            <source>Default here: {value} ({source}).</source>
            <translation>此处默认值：{value}（{source}）。</translation>
        </message>
        <message>
            <source>recommended for this Gemma 4 size</source>
            <translation>此 Gemma 4 规模的推荐值</translation>
        </message>
        <message>
            <source>the drafter's trained depth</source>
            <translation>草稿模型训练时的深度</translation>
        </message>
        <message>
            <source>llama.cpp's own default</source>
            <translation>llama.cpp 自身的默认值</translation>
        </message>
        <message>
            <source>Launch {name}</source>
            <translation>启动 {name}</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>Variant</source>
            <translation>版本</translation>
        </message>
        <message>
            <source>Quantization</source>
            <translation>量化</translation>
        </message>
        <message>
            <source>Engine</source>
            <translation>引擎</translation>
        </message>
        <message>
            <source>Only engines that can run this model's format are listed.</source>
            <translation>只列出能运行此模型格式的引擎。</translation>
        </message>
        <message>
            <source>Speculative Decoding</source>
            <translation>推测解码</translation>
        </message>
        <message>
            <source>Speculation can be slower when the drafter is expensive relative to the model, for example with mixture-of-experts models. Tandem measures every answer: the statistics strip shows tokens/s and how many drafted tokens were accepted, so you can see whether it pays.</source>
            <translation>当草稿模型相对于主模型开销较大时（例如混合专家模型），推测反而可能更慢。Tandem 会测量每个回答：统计条显示 Token/秒以及被接受的草稿 Token 数，让你看清是否划算。</translation>
        </message>
        <message>
            <source>Runs a small drafter beside the model. The drafter proposes several tokens per round and the model verifies them in one pass: the answer is identical, decoding is faster. Turning this on downloads an extra drafter checkpoint.</source>
            <translation>在模型旁运行一个小型草稿模型。草稿模型每轮提出若干 Token，由模型一次性验证：回答完全相同，解码更快。开启后会额外下载一个草稿模型检查点。</translation>
        </message>
        <message>
            <source>Drafter Quantization</source>
            <translation>草稿模型量化</translation>
        </message>
        <message>
            <source>Defaults to the first available</source>
            <translation>默认使用第一个可用项</translation>
        </message>
        <message>
            <source>The drafter is small, so quantizing it saves little memory but lowers how many of its tokens are accepted. An unquantized drafter is recommended even for a quantized model.</source>
            <translation>草稿模型很小，量化它节省的内存很少，却会降低其 Token 的接受率。即使主模型是量化版本，也建议使用未量化的草稿模型。</translation>
        </message>
        <message>
            <source>Speculative Tokens</source>
            <translation>推测 Token 数</translation>
        </message>
        <message>
            <source>Model-free speculation</source>
            <translation>无模型推测</translation>
        </message>
        <message>
            <source>Drafts from repeated text in the prompt and earlier answers, with no extra model. It helps most when answers repeat or edit earlier text, such as code.</source>
            <translation>从提示词和之前回答中的重复文本起草，无需额外模型。当回答会重复或修改之前的文本（例如代码）时效果最好。</translation>
        </message>
        <message>
            <source>Method</source>
            <translation>方法</translation>
        </message>
        <message>
            <source>Runtime and sampling</source>
            <translation>运行与采样</translation>
        </message>
        <message>
            <source>Context length</source>
            <translation>上下文长度</translation>
        </message>
        <message>
            <source>Threads</source>
            <translation>线程数</translation>
        </message>
        <message>
            <source>Automatic</source>
            <translation>自动</translation>
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
            <translation>最大新 Token 数</translation>
        </message>
        <message>
            <source>Launch</source>
            <translation>启动</translation>
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
            <translation>对话</translation>
        </message>
        <message>
            <source>Models</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>Downloads</source>
            <translation>下载</translation>
        </message>
        <message>
            <source>Settings</source>
            <translation>设置</translation>
        </message>
        <message>
            <source>Language</source>
            <translation>语言</translation>
        </message>
        <message>
            <source>New chat</source>
            <translation>新对话</translation>
        </message>
        <message>
            <source>Rename</source>
            <translation>重命名</translation>
        </message>
        <message>
            <source>Delete conversation</source>
            <translation>删除对话</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>Model: {name}</source>
            <translation>模型：{name}</translation>
        </message>
        <message>
            <source>Engine: {name}</source>
            <translation>引擎：{name}</translation>
        </message>
        <message>
            <source>Speculation: {mode}</source>
            <translation>推测：{mode}</translation>
        </message>
        <message>
            <source>Speculation: off</source>
            <translation>推测：关闭</translation>
        </message>
        <message>
            <source>No model loaded</source>
            <translation>未加载模型</translation>
        </message>
        <message>
            <source>Memory: {value}</source>
            <translation>内存：{value}</translation>
        </message>
        <message>
            <source>Downloading; the model loads when the download finishes.</source>
            <translation>正在下载；下载完成后会自动加载模型。</translation>
        </message>
        <message>
            <source>Loading {name}…</source>
            <translation>正在加载 {name}…</translation>
        </message>
        <message>
            <source>The default model is not available</source>
            <translation>默认模型不可用</translation>
        </message>
        <message>
            <source>Cancelling…</source>
            <translation>正在取消…</translation>
        </message>
        <message>
            <source>Loading: {step}</source>
            <translation>加载中：{step}</translation>
        </message>
        <message>
            <source>The model could not be loaded</source>
            <translation>无法加载模型</translation>
        </message>
        <message>
            <source>Loading cancelled</source>
            <translation>已取消加载</translation>
        </message>
        <message>
            <source>The download could not be queued</source>
            <translation>无法加入下载队列</translation>
        </message>
        <message>
            <source>Added to downloads</source>
            <translation>已加入下载</translation>
        </message>
        <message>
            <source>A download failed</source>
            <translation>下载失败</translation>
        </message>
        <message>
            <source>Check the network and the hub settings, then press Retry.</source>
            <translation>请检查网络和模型仓库设置，然后点击“重试”。</translation>
        </message>
        <message>
            <source>The files could not be deleted</source>
            <translation>无法删除文件</translation>
        </message>
        <message>
            <source>Removed {model} from Tandem; its files stay in the hub cache.</source>
            <translation>已从 Tandem 中移除 {model}；其文件仍保留在模型仓库缓存中。</translation>
        </message>
        <message>
            <source>Deleted {model}: {size} of disk space freed.</source>
            <translation>已删除 {model}：释放了 {size} 磁盘空间。</translation>
        </message>
        <message>
            <source>Removed {model} from Tandem; no disk space was freed (its files are still used by other Tandem models, or were already gone).</source>
            <translation>已从 Tandem 中移除 {model}；未释放磁盘空间（其文件仍被其他 Tandem 模型使用，或已不存在）。</translation>
        </message>
        <message>
            <source>Settings could not be saved</source>
            <translation>无法保存设置</translation>
        </message>
    </context>
    <context>
        <name>MessageBubble</name>
        <message>
            <source>You</source>
            <translation>你</translation>
        </message>
        <message>
            <source>Assistant</source>
            <translation>助手</translation>
        </message>
        <message>
            <source>stopped</source>
            <translation>已停止</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>失败</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>复制</translation>
        </message>
        <message>
            <source>Copy the text of this message</source>
            <translation>复制此消息的文本</translation>
        </message>
        <message>
            <source>Edit</source>
            <translation>编辑</translation>
        </message>
        <message>
            <source>Edit and resend: the answers after it are replaced</source>
            <translation>编辑并重新发送：其后的回答将被替换</translation>
        </message>
        <message>
            <source>Regenerate</source>
            <translation>重新生成</translation>
        </message>
        <message>
            <source>Generate this answer again</source>
            <translation>重新生成此回答</translation>
        </message>
    </context>
    <context>
        <name>RegistryModel</name>
        <message>
            <source>Downloaded</source>
            <translation>已下载</translation>
        </message>
        <message>
            <source>Partially downloaded</source>
            <translation>部分下载</translation>
        </message>
        <message>
            <source>Not downloaded</source>
            <translation>未下载</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>Formats</source>
            <translation>格式</translation>
        </message>
        <message>
            <source>Sizes</source>
            <translation>规模</translation>
        </message>
        <message>
            <source>Drafter</source>
            <translation>草稿模型</translation>
        </message>
        <message>
            <source>Has a drafter for speculative decoding</source>
            <translation>有用于推测解码的草稿模型</translation>
        </message>
        <message>
            <source>No drafter</source>
            <translation>无草稿模型</translation>
        </message>
        <message>
            <source>invalid</source>
            <translation>无效</translation>
        </message>
        <message>
            <source>Variant</source>
            <extracomment>Size buckets offered by the filter (billions of parameters, half-open ranges).</extracomment>
            <translation>版本</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>A small model that proposes tokens for this one to verify; used by speculative decoding.</source>
            <translation>一个为本模型提出待验证 Token 的小模型；用于推测解码。</translation>
        </message>
        <message>
            <source>with drafter</source>
            <translation>带草稿模型</translation>
        </message>
        <message>
            <source>Drafter quantizations</source>
            <translation>草稿模型量化</translation>
        </message>
        <message>
            <source>Model quantizations</source>
            <translation>模型量化</translation>
        </message>
        <message>
            <source>default</source>
            <translation>默认</translation>
        </message>
    </context>
    <context>
        <name>SamplingDialog</name>
        <message>
            <source>Conversation settings</source>
            <translation>对话设置</translation>
        </message>
        <message>
            <source>e.g. You are a concise assistant.</source>
            <translation>例如：你是一个简洁的助手。</translation>
        </message>
        <message>
            <source>System prompt</source>
            <translation>系统提示词</translation>
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
            <translation>最大新 Token 数</translation>
        </message>
    </context>
    <context>
        <name>SettingsDialog</name>
        <message>
            <source>Choose the model cache folder</source>
            <translation>选择模型缓存文件夹</translation>
        </message>
        <message>
            <source>Choose a full path for the model cache, such as {example}.</source>
            <translation>请为模型缓存选择完整路径，例如 {example}。</translation>
        </message>
        <message>
            <source>The model cache folder cannot be created: {reason}</source>
            <translation>无法创建模型缓存文件夹：{reason}</translation>
        </message>
        <message>
            <source>The model cache folder is not writable: {path}</source>
            <translation>模型缓存文件夹不可写：{path}</translation>
        </message>
        <message>
            <source>Settings</source>
            <translation>设置</translation>
        </message>
        <message>
            <source>Model hub</source>
            <translation>模型仓库</translation>
        </message>
        <message>
            <source>Download from</source>
            <translation>下载来源</translation>
        </message>
        <message>
            <source>Hugging Face endpoint</source>
            <translation>Hugging Face 端点</translation>
        </message>
        <message>
            <source>ModelScope endpoint</source>
            <translation>ModelScope 端点</translation>
        </message>
        <message>
            <source>Default (leave empty), or a mirror such as https://hf-mirror.com</source>
            <translation>默认（留空），或镜像地址，例如 https://hf-mirror.com</translation>
        </message>
        <message>
            <source>Hugging Face token</source>
            <translation>Hugging Face 令牌</translation>
        </message>
        <message>
            <source>ModelScope token</source>
            <translation>ModelScope 令牌</translation>
        </message>
        <message>
            <source>A token is stored in the system keyring; type to replace it</source>
            <translation>已有令牌保存在系统密钥环中；输入新值即可替换</translation>
        </message>
        <message>
            <source>Optional; stored in the system keyring</source>
            <translation>可选；保存在系统密钥环中</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>移除</translation>
        </message>
        <message>
            <source>Application</source>
            <translation>应用</translation>
        </message>
        <message>
            <source>Model cache</source>
            <translation>模型缓存</translation>
        </message>
        <message>
            <source>Default location</source>
            <translation>默认位置</translation>
        </message>
        <message>
            <source>Tandem's model entries (links to the downloaded files) go here. The files themselves stay in the Hugging Face or ModelScope cache, shared with other tools, so models already there are found again after a change.</source>
            <translation>Tandem 的模型条目（指向已下载文件的链接）存放在此处。文件本身保留在 Hugging Face 或 ModelScope 缓存中，与其他工具共享，因此更改位置后，已有的模型仍会被找到。</translation>
        </message>
        <message>
            <source>Browse…</source>
            <translation>浏览…</translation>
        </message>
        <message>
            <source>Default engine</source>
            <translation>默认引擎</translation>
        </message>
        <message>
            <source>Language</source>
            <translation>语言</translation>
        </message>
        <message>
            <source>System language</source>
            <translation>跟随系统</translation>
        </message>
    </context>
    <context>
        <name>StatsDialog</name>
        <message>
            <source>Answer statistics</source>
            <translation>回答统计</translation>
        </message>
        <message>
            <source>Decode speed</source>
            <translation>解码速度</translation>
        </message>
        <message>
            <source>{value} tok/s</source>
            <translation>{value} Token/秒</translation>
        </message>
        <message>
            <source>Time to first token</source>
            <translation>首 Token 时间</translation>
        </message>
        <message>
            <source>Total time</source>
            <translation>总时间</translation>
        </message>
        <message>
            <source>Prompt tokens</source>
            <translation>提示词 Token 数</translation>
        </message>
        <message>
            <source>Completion tokens</source>
            <translation>生成 Token 数</translation>
        </message>
        <message>
            <source>Rounds</source>
            <translation>轮数</translation>
        </message>
        <message>
            <source>Drafted / accepted</source>
            <translation>草稿 / 接受</translation>
        </message>
        <message>
            <source>Acceptance rate</source>
            <translation>接受率</translation>
        </message>
        <message>
            <source>Mean tokens per round</source>
            <translation>每轮平均 Token 数</translation>
        </message>
        <message>
            <source>Speculation</source>
            <translation>推测</translation>
        </message>
        <message>
            <source>off</source>
            <translation>关闭</translation>
        </message>
        <message>
            <source>Finish reason</source>
            <translation>结束原因</translation>
        </message>
        <message>
            <source>The plain speed is the median of this model's recent answers without speculation on this machine. Approximate, since the prompts differ; `tandem bench` measures both side by side.</source>
            <translation>普通速度是本机上该模型最近几次不使用推测解码的回答的中位数。由于提示词不同，这只是近似值；`tandem bench` 可以并排测量两者。</translation>
        </message>
        <message>
            <source>Relaunch the model with speculation off and get one answer: Tandem then compares speculative answers with it automatically.</source>
            <translation>关闭推测解码重新启动该模型并获得一次回答：之后 Tandem 会自动将推测解码的回答与之比较。</translation>
        </message>
        <message>
            <source>Round</source>
            <translation>轮次</translation>
        </message>
        <message>
            <source>Drafted</source>
            <translation>草稿</translation>
        </message>
        <message>
            <source>Accepted</source>
            <translation>已接受</translation>
        </message>
        <message>
            <source>not measured</source>
            <translation>未测量</translation>
        </message>
        <message>
            <source>Plain decode speed</source>
            <translation>普通解码速度</translation>
        </message>
        <message>
            <source>Speedup vs plain</source>
            <translation>相对普通解码的加速比</translation>
        </message>
        <message>
            <source>Plain answers measured</source>
            <translation>已测量的普通回答数</translation>
        </message>
    </context>
    <context>
        <name>StatsStrip</name>
        <message>
            <source>Click for per-round details</source>
            <extracomment>a speedup inside [SLOWER, FASTER] is "about the same"; below SLOWER the strip warns</extracomment>
            <translation>点击查看每轮详情</translation>
        </message>
        <message>
            <source>{value} tok/s</source>
            <translation>{value} Token/秒</translation>
        </message>
        <message>
            <source>first token {value}</source>
            <translation>首 Token {value}</translation>
        </message>
        <message>
            <source>{n} rounds</source>
            <translation>{n} 轮</translation>
        </message>
        <message>
            <source>no speculation</source>
            <translation>未使用推测</translation>
        </message>
        <message>
            <source>{value} accepted</source>
            <translation>接受 {value}</translation>
        </message>
        <message>
            <source>{value} tokens/round</source>
            <translation>{value} Token/轮</translation>
        </message>
        <message>
            <source>Share of drafted tokens the model accepted</source>
            <translation>模型接受的草稿 Token 占比</translation>
        </message>
        <message>
            <source>Tokens produced per verification round: accepted drafts plus one</source>
            <translation>每个验证轮次产生的 Token 数：已接受的草稿加一</translation>
        </message>
        <message>
            <source>Per-round acceptance: grey = drafted, green = accepted</source>
            <translation>每轮接受情况：灰色 = 草稿，绿色 = 已接受</translation>
        </message>
        <message>
            <source>speedup: not measured</source>
            <translation>加速比：未测量</translation>
        </message>
        <message>
            <source>Tandem has not seen this model answer without speculation on this machine yet. Relaunch the model with speculation off and get one answer of at least {n} tokens, then load it with speculation again: later answers show the speedup automatically.</source>
            <translation>Tandem 尚未在本机上见过该模型不使用推测解码的回答。请关闭推测解码重新启动该模型，获得一次至少 {n} 个 Token的回答，然后再开启推测解码加载：之后的回答会自动显示加速比。</translation>
        </message>
        <message>
            <source>{value}× vs plain</source>
            <translation>相对普通 {value}×</translation>
        </message>
        <message>
            <source>Decode speed compared with this model without speculation on this machine: {baseline} tok/s, the median of its recent plain answers (samples: {n}). Approximate, since the prompts differ; `tandem bench` measures both side by side.</source>
            <translation>与本机上该模型不使用推测解码时的解码速度相比：{baseline} tok/s，即其最近普通回答的中位数（样本数：{n}）。由于提示词不同，这只是近似值；`tandem bench` 可以并排测量两者。</translation>
        </message>
        <message>
            <source>Speculation is slower than plain decoding here: try fewer draft tokens per round, or launch the model without speculation.</source>
            <translation>在这里推测解码比普通解码更慢：请尝试减少每轮的草稿 Token 数，或不使用推测解码启动该模型。</translation>
        </message>
    </context>
</TS>
