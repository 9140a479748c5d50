<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AcceptanceFigures</name>
    <message>
        <source>llama.cpp timings</source>
        <translation>llama.cpp timings 计时数据</translation>
    </message>
    <message>
        <source>vLLM per-request metrics</source>
        <translation>vLLM 单请求指标</translation>
    </message>
    <message>
        <source>vLLM /metrics counters</source>
        <translation>vLLM /metrics 计数器</translation>
    </message>
    <message>
        <source>this server does not report acceptance</source>
        <translation>此服务器不报告接受率</translation>
    </message>
    <message>
        <source>The counters are server-wide, read before and after this request: other requests running on the server at the same time are counted too.</source>
        <extracomment>the notes :mod:`app.core.engines.remote.acceptance` writes (an unknown one is shown as written)</extracomment>
        <translation>这些计数器是整个服务器范围的，在本次请求前后读取：同一时间在服务器上运行的其他请求也会被计入。</translation>
    </message>
    <message>
        <source>Accepted tokens are the completion tokens minus the verification passes; the server does not report how many tokens were drafted.</source>
        <translation>接受的 Token 数 = 生成 Token 数减去验证次数；服务器不报告草稿 Token 的数量。</translation>
    </message>
    <message>
        <source>The server sent no drafting figures with this answer, so Tandem shows none: it may run without a drafter, or be a kind of server that does not report them.</source>
        <translation>服务器没有随此回答发送任何草稿数据，因此 Tandem 不显示：它可能未使用草稿模型运行，或者这类服务器不报告这些数据。</translation>
    </message>
    <message>
        <source>As the server reported them: {source}.</source>
        <translation>按服务器报告的数据：{source}。</translation>
    </message>
    <message>
        <source>{n} draft tokens accepted (drafted not reported)</source>
        <translation>接受了 {n} 个草稿 Token（未报告草稿总数）</translation>
    </message>
    <message>
        <source>not reported</source>
        <translation>未报告</translation>
    </message>
</context>
<context>
    <name>AddServerDialog</name>
    <message>
        <source>Add an MCP server</source>
        <extracomment>the tree&apos;s columns</extracomment>
        <translation>添加 MCP 服务器</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Command or URL</source>
        <translation>命令或 URL</translation>
    </message>
    <message>
        <source>npx -y @modelcontextprotocol/server-filesystem ~/notes</source>
        <translation>例如 npx -y @modelcontextprotocol/server-filesystem ~/notes</translation>
    </message>
</context>
<context>
    <name>AnswerEnding</name>
    <message>
        <source>context full</source>
        <translation>上下文已满</translation>
    </message>
    <message>
        <source>The answer stopped at the end of the model&apos;s context: the conversation and this answer take {used} tokens, before Max new tokens ({max}) was reached. Start a new chat, or load the model with a larger context length.</source>
        <translation>回答在模型上下文的末尾停止：对话和本次回答共占用 {used} 个 token，尚未达到最大新 Token 数（{max}）。请开始新对话，或以更大的上下文长度加载模型。</translation>
    </message>
    <message>
        <source>Max new tokens reached</source>
        <translation>已达最大新 Token 数</translation>
    </message>
    <message>
        <source>The answer stopped at Max new tokens ({max}). Raise it in the conversation settings, or ask the model to go on.</source>
        <translation>回答在最大新 Token 数（{max}）处停止。可在对话设置中调高该值，或让模型继续。</translation>
    </message>
    <message>
        <source>length limit reached</source>
        <translation>已达长度上限</translation>
    </message>
    <message>
        <source>The answer stopped at Max new tokens or at the end of the model&apos;s context.</source>
        <translation>回答在最大新 Token 数处或模型上下文的末尾停止。</translation>
    </message>
    <message>
        <source>the model ended its answer</source>
        <translation>模型结束了回答</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>an error stopped it</source>
        <translation>因错误而停止</translation>
    </message>
</context>
<context>
    <name>Attachments</name>
    <message>
        <source>the file is empty</source>
        <extracomment>the longest side of a thumbnail in a message and in the composer</extracomment>
        <translation>文件是空的</translation>
    </message>
    <message>
        <source>the image is {mb:.1f} MB; the limit is {limit} MB (save it smaller or as JPEG)</source>
        <translation>图片大小为 {mb:.1f} MB，上限为 {limit} MB（请另存为更小的文件或 JPEG）</translation>
    </message>
    <message>
        <source>SVG drawings are not supported; export it as PNG or JPEG and attach that</source>
        <translation>不支持 SVG 矢量图；请导出为 PNG 或 JPEG 后再附加</translation>
    </message>
    <message>
        <source>{fmt} images are not supported; use PNG, JPEG, WebP, GIF or BMP</source>
        <translation>不支持 {fmt} 图片；请使用 PNG、JPEG、WebP、GIF 或 BMP</translation>
    </message>
    <message>
        <source>the image has more than {limit} megapixels; scale it down and attach it again</source>
        <translation>图片超过 {limit} 百万像素；请缩小后重新附加</translation>
    </message>
    <message>
        <source>this is not an image Tandem can read (PNG, JPEG, WebP, GIF or BMP)</source>
        <translation>这不是 Tandem 能读取的图片（PNG、JPEG、WebP、GIF 或 BMP）</translation>
    </message>
    <message>
        <source>the image is damaged or cut short</source>
        <translation>图片已损坏或不完整</translation>
    </message>
    <message>
        <source>the file cannot be read</source>
        <translation>无法读取该文件</translation>
    </message>
    <message>
        <source>the image cannot be saved; free some disk space and send again</source>
        <translation>无法保存图片；请释放一些磁盘空间后重新发送</translation>
    </message>
</context>
<context>
    <name>AutoPanel</name>
    <message>
        <source>Checking for a stored measurement…</source>
        <translation>正在查找已保存的测量结果…</translation>
    </message>
    <message>
        <source>Measuring which speculation pays on this machine…</source>
        <translation>正在测量哪种推测解码在本机上划算…</translation>
    </message>
    <message>
        <source>Auto chose: {config}</source>
        <translation>Auto 的选择：{config}</translation>
    </message>
    <message>
        <source>Measured in {seconds:.0f} s; stored in {path}</source>
        <translation>测量用时 {seconds:.0f} 秒；保存在 {path}</translation>
    </message>
    <message>
        <source>Auto could not measure: {reason}</source>
        <translation>Auto 无法测量：{reason}</translation>
    </message>
    <message>
        <source>The measurement was cancelled; nothing was stored.</source>
        <translation>测量已取消；未保存任何结果。</translation>
    </message>
    <message>
        <source>Learned from your answers: {routes}</source>
        <translation>从你的回答中学到：{routes}</translation>
    </message>
    <message>
        <source>{config} within {error}% ({answers} answers)</source>
        <translation>{config} 误差 {error}%（{answers} 个回答）</translation>
    </message>
    <message>
        <source>Predictions against your answers: {rows}</source>
        <translation>预测与您的回答相比：{rows}</translation>
    </message>
    <message>
        <source>After every answer Tandem predicts what each configuration would have done on it, from its drafts replayed over the answer and what each pass costs on this machine. The configuration that answered is predicted too: this is the median gap between that prediction and the speed the answer measured.</source>
        <translation>每个回答之后，Tandem 都会预测每种配置在这个回答上会有怎样的表现：依据在该回答上重放的草稿，以及本机上每次前向计算的开销。实际作答的配置也会被预测：这里显示的是该预测与回答实测速度之间差距的中位数。</translation>
    </message>
    <message>
        <source>prose</source>
        <translation>散文</translation>
    </message>
    <message>
        <source>code edit</source>
        <translation>代码修改</translation>
    </message>
    <message>
        <source>repeat</source>
        <translation>重复请求</translation>
    </message>
    <message>
        <source>agent turn</source>
        <translation>智能体回合</translation>
    </message>
    <message>
        <source>document question</source>
        <translation>文档提问</translation>
    </message>
    <message>
        <source>{measured}, for {kinds}</source>
        <translation>{measured}，用于{kinds}</translation>
    </message>
    <message>
        <source>{measured}, not used</source>
        <translation>{measured}，未采用</translation>
    </message>
    <message>
        <source>off: nothing was faster than plain decoding beyond the measured noise</source>
        <translation>关闭：没有任何配置比普通解码快出测得的噪声范围</translation>
    </message>
    <message>
        <source>off: no configuration was faster without being slower on prose</source>
        <translation>关闭：没有哪种配置在不拖慢散文的前提下更快</translation>
    </message>
    <message>
        <source>Auto: measure and use what pays on this machine</source>
        <translation>Auto：测量并使用在本机上划算的方式</translation>
    </message>
    <message>
        <source>Auto compares speculation off with the drafter at a few depths and the engine&apos;s model-free methods on short fixed prompts, once per model, drafter, engine and machine, and keeps the fastest that is never slower on prose; configurations within the measured noise of each other are a tie, and a tie goes to the cheaper one. It measures in the background while you are idle and answers meanwhile with its best guess; a choice that loses on your answers is dropped. Choosing a drafter or a model-free method yourself turns Auto off.</source>
        <translation>Auto 会在简短的固定提示上，把关闭投机解码与几种深度的草稿模型以及引擎的无模型方法进行比较（每个模型、草稿模型、引擎和机器只测一次），并保留在散文上从不变慢的最快配置；彼此相差在测得噪声之内的配置视为持平，持平时选择开销更小的一个。它在你空闲时于后台测量，期间先用最佳猜测作答；在你的回答中表现变差的选择会被放弃。自己选择草稿模型或无模型方法会关闭 Auto。</translation>
    </message>
    <message>
        <source>Re-measure</source>
        <extracomment>what Auto learned from real answers, per kind how far the cost model&apos;s predictions were from the answers&apos; measured speed, per configuration: (median |predicted / measured - 1|, answers)</extracomment>
        <translation>重新测量</translation>
    </message>
    <message>
        <source>Measure now</source>
        <translation>立即测量</translation>
    </message>
    <message>
        <source>Auto chooses once the settings below can launch: see the message there.</source>
        <translation>下方的设置可以启动后，Auto 才会选择：请看那里的提示。</translation>
    </message>
    <message>
        <source>Not measured yet: once the model is downloaded, Auto answers at once and measures in the background while you are idle.</source>
        <translation>尚未测量：模型下载完成后，Auto 会立即回答，并在你空闲时于后台测量。</translation>
    </message>
    <message>
        <source>Not measured yet: Auto answers with {config} at once and measures in the background while you are idle (about {seconds} s).</source>
        <translation>尚未测量：Auto 先用 {config} 立即回答，并在你空闲时于后台测量（约 {seconds} 秒）。</translation>
    </message>
    <message>
        <source>{kind}: {config}, not enough answers yet ({answers} so far)</source>
        <translation>{kind}：{config}，回答还不够多（目前 {answers} 个）</translation>
    </message>
    <message>
        <source>{kind}: {config}, {figure}, from {answers} answers</source>
        <translation>{kind}：{config}，{figure}，基于 {answers} 个回答</translation>
    </message>
    <message>
        <source>Auto records each answer&apos;s speed per kind of request and configuration. A route moves only when another configuration is faster beyond the measured noise, and now and then an answer tries an alternative that could be faster.</source>
        <translation>Auto 按请求类型和配置记录每个回答的速度。只有当另一种配置的优势超出测得的噪声时，路线才会改变；偶尔会有一个回答尝试可能更快的替代配置。</translation>
    </message>
    <message>
        <source>{speedup:.2f}x faster (at least {low:.2f}x)</source>
        <translation>快 {speedup:.2f}x（至少 {low:.2f}x）</translation>
    </message>
    <message>
        <source>slower ({speedup:.2f}x the speed)</source>
        <translation>更慢（速度为 {speedup:.2f}x）</translation>
    </message>
    <message>
        <source>no clear difference ({speedup:.2f}x)</source>
        <translation>无明显差别（{speedup:.2f}x）</translation>
    </message>
    <message>
        <source>Each figure is a speed against speculation off on this machine. Faster and slower are sure beyond the measured noise, and &quot;at least&quot; is the lowest the speedup is likely to be. No clear difference: the two speeds are within the noise. Not enough answers yet, or too uncertain to tell: the figure could still be far off either way.</source>
        <translation>每个数字都是在这台机器上相对于关闭推测的速度。“快”和“更慢”都超出了测得的噪声，是确定的；“至少”是加速比可能的最低值。无明显差别：两个速度在噪声范围内。回答还不够多或太不确定：这个数字仍可能偏高或偏低很多。</translation>
    </message>
    <message>
        <source>{config}: {prose} on prose, {code} on code edits, {repeat} on repeats</source>
        <translation>{config}：散文 {prose}，代码修改 {code}，重复请求 {repeat}</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>未测量</translation>
    </message>
    <message>
        <source>too uncertain to tell</source>
        <translation>太不确定，无法判断</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>AutoTuner</name>
    <message>
        <source>Auto: {config} (changed from {old}: {why})</source>
        <extracomment>the name of the calibration&apos;s thread the calibration under way (on a thread of its own, :meth:`~app.gui.ops.Ops.start_own`) free memory now (bytes); tests replace it</extracomment>
        <translation>Auto：{config}（已从 {old} 切换：{why}）</translation>
    </message>
    <message>
        <source>Auto: {config} (not measured: too little free memory)</source>
        <translation>Auto：{config}（未测量：可用内存不足）</translation>
    </message>
    <message>
        <source>Auto: {config} while measuring</source>
        <translation>Auto：{config}（测量中）</translation>
    </message>
    <message>
        <source>Measuring would load the model twice more beside the chat ({need} GB) and {free} GB is free, so Auto does not measure in the background: it keeps the best guess for this model and still demotes it if your answers come out slower than plain. Close other programs and Auto measures at the next idle moment, or use Re-measure in the launch dialog.</source>
        <translation>测量需要在聊天之外再加载两份模型（{need} GB），而当前可用内存为 {free} GB，因此 Auto 不在后台测量：它沿用对该模型的最佳猜测，如果你的回答比不使用推测时更慢，仍会将其降级。关闭其他程序后，Auto 会在下一次空闲时测量；也可以在启动对话框中使用“重新测量”。</translation>
    </message>
    <message>
        <source>Nothing is measured on this machine yet, so Auto answers with the best guess for this model and measures which speculation pays while you are idle. A new message stops the measurement at once; Auto switches between answers, never during one.</source>
        <translation>本机尚未测量，因此 Auto 先用对该模型的最佳猜测回答，并在你空闲时测量哪种推测解码划算。发送新消息会立即停止测量；Auto 只在两次回答之间切换，绝不在回答中途切换。</translation>
    </message>
    <message>
        <source>measured on this machine</source>
        <translation>已在本机测量</translation>
    </message>
    <message>
        <source>{ratio} vs plain on your answers</source>
        <translation>在你的回答中为普通解码的 {ratio}</translation>
    </message>
</context>
<context>
    <name>BrowserPage</name>
    <message>
        <source>This entry is invalid and was skipped: {reason}</source>
        <translation>此条目无效，已跳过：{reason}</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Continues text (base model)</source>
        <translation>续写文本（基础模型）</translation>
    </message>
    <message>
        <source>Reasoning</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>Built-in MTP heads</source>
        <translation>内置 MTP 头</translation>
    </message>
    <message>
        <source>{tokens} tokens of context</source>
        <translation>{tokens} 个词元的上下文</translation>
    </message>
    <message>
        <source>{verdict} at {ctx} tokens</source>
        <translation>{verdict}（{ctx} 个词元上下文）</translation>
    </message>
    <message>
        <source>Largest quantization that fits: {quant}</source>
        <translation>能装下的最大量化：{quant}</translation>
    </message>
    <message>
        <source>Fits in memory</source>
        <translation>内存足够</translation>
    </message>
    <message>
        <source>Tight: it needs most of the free memory</source>
        <translation>勉强：需要大部分可用内存</translation>
    </message>
    <message>
        <source>Too large for this machine&apos;s free memory</source>
        <translation>超出本机可用内存</translation>
    </message>
    <message>
        <source>Memory need unknown</source>
        <translation>内存需求未知</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>What this model can do, from its model card and configuration</source>
        <translation>此模型能做什么（来自其模型卡和配置）</translation>
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
        <source>Reads images</source>
        <translation>可读图像</translation>
    </message>
    <message>
        <source>Only models that can read images you attach</source>
        <translation>只显示能读取你附加的图像的模型</translation>
    </message>
    <message>
        <source>Calls tools</source>
        <translation>可调用工具</translation>
    </message>
    <message>
        <source>Together: {size}</source>
        <extracomment>The detail card repaints at most this often while the selection changes (about 30 frames/s).</extracomment>
        <translation>合计：{size}</translation>
    </message>
    <message>
        <source>Only models that can call tools (functions) you describe</source>
        <translation>只显示能调用你描述的工具（函数）的模型</translation>
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
        <source>Refresh from hub</source>
        <translation>从模型库刷新</translation>
    </message>
    <message>
        <source>Read the quantizations this variant&apos;s repositories hold now (the catalog lists what was published when it was written); new ones are added, missing ones are named.</source>
        <translation>读取此变体的仓库当前包含的量化版本（目录列出的是编写时已发布的版本）；新的会被添加，缺失的会被列出。</translation>
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
    <name>Calibration</name>
    <message>
        <source>loading the model without speculation</source>
        <translation>正在加载不带投机的模型</translation>
    </message>
    <message>
        <source>{config}: speed without speculation</source>
        <translation>{config}：不带投机的速度</translation>
    </message>
    <message>
        <source>loading {config}</source>
        <translation>正在加载 {config}</translation>
    </message>
    <message>
        <source>{config}: prose, speculation off</source>
        <translation>{config}：散文，投机关闭</translation>
    </message>
    <message>
        <source>{config}: prose</source>
        <translation>{config}：散文</translation>
    </message>
    <message>
        <source>{config}: code edit, speculation off</source>
        <translation>{config}：代码修改，投机关闭</translation>
    </message>
    <message>
        <source>{config}: code edit</source>
        <translation>{config}：代码修改</translation>
    </message>
    <message>
        <source>{config}: the same code edit again</source>
        <translation>{config}：再次发送同一代码修改</translation>
    </message>
    <message>
        <source>{config}: prose again, speculation off</source>
        <translation>{config}：再测散文，投机关闭</translation>
    </message>
    <message>
        <source>{config}: prose again</source>
        <translation>{config}：再测散文</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>测量完成</translation>
    </message>
</context>
<context>
    <name>ChatController</name>
    <message>
        <source>The tool servers could not be read</source>
        <extracomment>the running answer of each conversation that has one shows and saves the running answers as they grow (its timer&apos;s tick is :meth:`_flush`) the conversation&apos;s model, switched to before its answer a message waiting for its conversation&apos;s model to load ends the answers: their rows, bubbles and figures, or the failure reported runs each answer&apos;s task (a window&apos;s operations, or the chat&apos;s own without one) puts each answer&apos;s documents into its prompt; opens the documents&apos; files reads each answer from the engine host the MCP servers offered to the model (None without ops: no tools) runs a message&apos;s tool loop (None without tools)</extracomment>
        <translation>无法读取工具服务器</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <source>The model is still loading.</source>
        <translation>模型仍在加载中。</translation>
    </message>
    <message>
        <source>Your message stays in the box; send it again once the load bar is gone.</source>
        <translation>你的消息仍保留在输入框中；加载条消失后请再次发送。</translation>
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
        <source>Loading {model}…</source>
        <translation>正在加载 {model}…</translation>
    </message>
    <message>
        <source>This message needs {needed} tokens with the system prompt, but the model&apos;s context holds {n_ctx} tokens and {reserved} of them are kept for the answer.</source>
        <extracomment>the conversation shown, if any the chat&apos;s actions follow its running answers</extracomment>
        <translation>这条消息连同系统提示词需要 {needed} 个 Token，但模型的上下文只能容纳 {n_ctx} 个 Token，其中 {reserved} 个要留给回答。</translation>
    </message>
    <message>
        <source>Shorten the message, lower Max new tokens in Sampling, or load the model with a larger context length.</source>
        <translation>请缩短消息、在“采样”中调低“最大新 Token 数”，或用更大的上下文长度加载模型。</translation>
    </message>
    <message>
        <source>The answer could not be generated</source>
        <translation>无法生成回答</translation>
    </message>
    <message>
        <source>This answer&apos;s model is not loaded.</source>
        <extracomment>the answer being measured the documents of its conversation, by stored name</extracomment>
        <translation>此回答的模型未加载。</translation>
    </message>
    <message>
        <source>Load {model} again to measure this answer.</source>
        <translation>请重新加载 {model} 以测量此回答。</translation>
    </message>
    <message>
        <source>The answer could not be measured</source>
        <translation>无法测量此回答</translation>
    </message>
    <message>
        <source>Off</source>
        <extracomment>the choice of a chat not yet stored the configuration that wrote each conversation&apos;s last answer in this session: the header names the shown conversation&apos;s (a new chat has none)</extracomment>
        <translation>关闭</translation>
    </message>
    <message>
        <source>This conversation&apos;s speculation choice is {choice}, but the loaded model runs {running} and cannot change it without a reload.</source>
        <translation>此对话的推测设置为 {choice}，但已加载的模型运行的是 {running}，不重新加载就无法更改。</translation>
    </message>
    <message>
        <source>no speculation</source>
        <translation>无推测</translation>
    </message>
    <message>
        <source>Choose Auto beside the conversation&apos;s title, or reload the model with that choice.</source>
        <translation>请在对话标题旁选择 Auto，或按该选择重新加载模型。</translation>
    </message>
    <message>
        <source>An image</source>
        <translation>一张图片</translation>
    </message>
    <message>
        <source>{n} images</source>
        <translation>{n} 张图片</translation>
    </message>
    <message>
        <source>The models on disk could not be read</source>
        <extracomment>its id in the local API (as ``tandem serve --all`` names it) the model of a chat not yet stored (&quot;&quot;: the loaded one) the models on disk were read (they are read when first needed: the list opens, a conversation that chose a model answers, the Local server starts)</extracomment>
        <translation>无法读取磁盘上的模型</translation>
    </message>
    <message>
        <source>Reading {file}…</source>
        <extracomment>what the worker reports: (&quot;reading&quot; | &quot;indexing&quot;, file name) or (&quot;fitting&quot;, &quot;&quot;)</extracomment>
        <translation>正在读取 {file}…</translation>
    </message>
    <message>
        <source>Finding the passages of {file}…</source>
        <translation>正在查找 {file} 中的相关段落…</translation>
    </message>
    <message>
        <source>Reading the documents…</source>
        <translation>正在读取文档…</translation>
    </message>
    <message>
        <source>{file} cannot be opened.</source>
        <extracomment>the chat&apos;s sampling now (its max new tokens set the answer&apos;s reserve) opens a file&apos;s address with the desktop&apos;s application for it</extracomment>
        <translation>无法打开 {file}。</translation>
    </message>
    <message>
        <source>Its stored copy is gone or unreadable; attach the file again.</source>
        <translation>它保存的副本已不存在或无法读取；请重新附加该文件。</translation>
    </message>
    <message>
        <source>The message it was attached to is no longer in this conversation.</source>
        <translation>附加它的那条消息已不在此对话中。</translation>
    </message>
</context>
<context>
    <name>ChatTools</name>
    <message>
        <source>The tool servers could not be started</source>
        <extracomment>the stored servers; None until read (the first second of a start) the loop&apos;s options for each message (the turn cap); a message&apos;s tool choice is its own the running servers (None until the configuration is read)</extracomment>
        <translation>无法启动工具服务器</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <source>Highlight drafted tokens</source>
        <extracomment>a conversation opens with its last messages built at once, the earlier ones a batch per turn where a stored image name&apos;s file is (the controller sets it from its chat store) where a stored document name&apos;s file is (set like image_path) earlier messages of the shown conversation still to be built (oldest first) the user is reading earlier messages while they are built above: this built bubble stays this far (column y minus scroll value) from the top of the view, however tall the messages built above it are (a range delta was fooled by Qt&apos;s passing range of 0) the loaded family&apos;s ``tool_parser``; None: tagged tool calls are still found by their tags</extracomment>
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
    <message>
        <source>Switch speculation off</source>
        <translation>关闭推测解码</translation>
    </message>
    <message>
        <source>Re-measure</source>
        <translation>重新测量</translation>
    </message>
    <message>
        <source>Auto chose {method}, but {slower} of your last {n} answers were slower than without speculation ({ratios}).</source>
        <translation>Auto 选择了 {method}，但您最近 {n} 个回答中有 {slower} 个比不使用推测解码时更慢（{ratios}）。</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Images and documents ({patterns})</source>
        <extracomment>the message box&apos;s height at rest (about three lines), and the share of the window it may grow to the enabled servers&apos; states and the names of the tools offered (see set_tools) images waiting to be sent with the message the loaded model reads images (None: nothing loaded); attachments to a model that does not are named in the notice at once, before anything is sent documents waiting to be sent with the message (some may still be being read) reads documents off the GUI thread (None: read at once, on this thread) Send was pressed while documents were being read: the message goes once they are</extracomment>
        <translation>图片和文档 ({patterns})</translation>
    </message>
    <message>
        <source>Images ({patterns})</source>
        <translation>图片 ({patterns})</translation>
    </message>
    <message>
        <source>Documents ({patterns})</source>
        <translation>文档 ({patterns})</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>Attach images or documents</source>
        <translation>附加图片或文档</translation>
    </message>
    <message>
        <source>At most {n} images per message; the rest were not attached.</source>
        <translation>每条消息最多 {n} 张图片；其余的未附加。</translation>
    </message>
    <message>
        <source>pasted image {n}</source>
        <translation>粘贴的图片 {n}</translation>
    </message>
    <message>
        <source>At most {n} documents per message; the rest were not attached.</source>
        <translation>每条消息最多 {n} 个文档；其余的未附加。</translation>
    </message>
    <message>
        <source>Auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>None</source>
        <translation>不用工具</translation>
    </message>
    <message>
        <source>Any tool</source>
        <translation>任一工具</translation>
    </message>
    <message>
        <source>Call {name}</source>
        <translation>调用 {name}</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>正在启动</translation>
    </message>
    <message>
        <source>failed: {reason}</source>
        <translation>失败：{reason}</translation>
    </message>
    <message>
        <source>not started</source>
        <translation>未启动</translation>
    </message>
    <message>
        <source>1 tool</source>
        <translation>1 个工具</translation>
    </message>
    <message>
        <source>{n} tools</source>
        <translation>{n} 个工具</translation>
    </message>
    <message>
        <source>{tools} · starting…</source>
        <translation>{tools} · 正在启动…</translation>
    </message>
    <message>
        <source>{tools} · {servers} failed</source>
        <translation>{tools} · {servers} 失败</translation>
    </message>
    <message>
        <source>Tools the model is offered</source>
        <translation>提供给模型的工具</translation>
    </message>
    <message>
        <source>The servers have not started yet.</source>
        <translation>服务器尚未启动。</translation>
    </message>
    <message>
        <source>Turn tools on or off in Settings → Tools.</source>
        <translation>在“设置 → 工具”中开启或关闭工具。</translation>
    </message>
    <message>
        <source>Sending once {file} is read…</source>
        <translation>{file} 读取完毕后即发送…</translation>
    </message>
    <message>
        <source>The loaded model cannot read images: load a vision model to send these.</source>
        <translation>当前加载的模型无法读取图片：请加载视觉模型后再发送。</translation>
    </message>
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
    <message>
        <source>Attach images (PNG, JPEG, WebP, GIF or BMP) or documents (text, Markdown, code, CSV, HTML, PDF or DOCX); you can also paste or drop them here</source>
        <translation>附加图片（PNG、JPEG、WebP、GIF 或 BMP）或文档（文本、Markdown、代码、CSV、HTML、PDF 或 DOCX）；也可以粘贴或拖放到这里</translation>
    </message>
    <message>
        <source>Tool choice:</source>
        <translation>工具选择：</translation>
    </message>
    <message>
        <source>For this message: Auto lets the model decide; None offers no tools; Any tool or a named tool makes the model call one first. Back to Auto after sending.</source>
        <translation>仅用于这条消息：“自动”由模型决定；“不用工具”不提供任何工具；“任一工具”或指定的工具会让模型先调用一个工具。发送后恢复为“自动”。</translation>
    </message>
</context>
<context>
    <name>Configuration</name>
    <message>
        <source>off</source>
        <extracomment>a speedup inside [SLOWER, FASTER] is &quot;about the same&quot;; below SLOWER the strip warns</extracomment>
        <translation>关闭</translation>
    </message>
    <message>
        <source>{n}/round</source>
        <translation>{n}/轮</translation>
    </message>
</context>
<context>
    <name>ConversationsModel</name>
    <message>
        <source>Writing an answer…</source>
        <extracomment>the last search&apos;s hits: conversation id -&gt; the text around its first hit the conversations whose answer is being written (a pencil, and a line in the tooltip)</extracomment>
        <translation>正在写回答…</translation>
    </message>
</context>
<context>
    <name>ConversationsPanel</name>
    <message>
        <source>New chat</source>
        <extracomment>a search runs this long after the last keystroke (one query per pause, not per key)</extracomment>
        <translation>新对话</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Export conversation</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <source>Shows the conversations whose title or messages hold this text</source>
        <translation>只显示标题或消息中包含此文字的对话</translation>
    </message>
    <message>
        <source>No conversation holds this text.</source>
        <translation>没有对话包含此文字。</translation>
    </message>
    <message>
        <source>Markdown with images (*.md)</source>
        <translation>Markdown 及图片 (*.md)</translation>
    </message>
    <message>
        <source>Web page (*.html)</source>
        <translation>网页 (*.html)</translation>
    </message>
    <message>
        <source>JSON, OpenAI messages with speculation figures (*.json)</source>
        <translation>JSON，OpenAI 消息格式，含投机解码数据 (*.json)</translation>
    </message>
    <message>
        <source>The conversation could not be exported: {error}</source>
        <translation>无法导出对话：{error}</translation>
    </message>
</context>
<context>
    <name>DeleteDialog</name>
    <message>
        <source>Also deletes the model and drafter files from the {hub} cache, unless another Tandem model still uses them. Other tools that share this cache (the hf command, Python scripts, other apps) lose these files and must download them again.</source>
        <extracomment>the model is the one loaded now: it is unloaded before its files go</extracomment>
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
        <source>Tandem&apos;s entry for this model and its drafter is removed. The downloaded files stay in the {hub} cache, where other tools can still use them.</source>
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
        <source>It is the loaded model: Tandem unloads it first.</source>
        <translation>这是当前已加载的模型：Tandem 会先将其卸载。</translation>
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
        <translation>请输入大于零的整数，或留空。</translation>
    </message>
</context>
<context>
    <name>DocumentChip</name>
    <message>
        <source>Reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message>
        <source>Reading {file}…</source>
        <translation>正在读取 {file}…</translation>
    </message>
    <message>
        <source>Open {file}</source>
        <translation>打开 {file}</translation>
    </message>
    <message>
        <source>Remove this document</source>
        <translation>移除此文档</translation>
    </message>
</context>
<context>
    <name>Documents</name>
    <message>
        <source>{n} bytes</source>
        <extracomment>the most documents one message carries a document longer than this (estimated tokens) gets its passage index built when it is read, off the GUI thread, so the question that needs it does not wait for it the suffixes the file dialog&apos;s &quot;Documents&quot; filter shows (any other file can still be chosen under &quot;All files&quot;: its bytes decide what it is) a chip&apos;s width range (pixels): long names are elided inside it the characters of a passage&apos;s first line shown in the sources list</extracomment>
        <translation>{n} 字节</translation>
    </message>
    <message>
        <source>1 page</source>
        <translation>1 页</translation>
    </message>
    <message>
        <source>{n} pages</source>
        <translation>{n} 页</translation>
    </message>
    <message>
        <source>the file is larger than Tandem reads ({limit} MB, or too much text); attach a smaller file, or split it</source>
        <translation>文件超出了 Tandem 可读取的大小（{limit} MB，或文字过多）；请附加更小的文件，或将其拆分</translation>
    </message>
    <message>
        <source>the file has no text in it</source>
        <translation>文件中没有文字</translation>
    </message>
    <message>
        <source>this is a binary file, not text; attach a text, PDF or DOCX file</source>
        <translation>这是二进制文件，不是文本；请附加文本、PDF 或 DOCX 文件</translation>
    </message>
    <message>
        <source>the text is in an encoding Tandem does not read; save it as UTF-8 and attach it again</source>
        <translation>文本使用了 Tandem 无法读取的编码；请另存为 UTF-8 后重新附加</translation>
    </message>
    <message>
        <source>the PDF is protected by a password; remove the protection and attach it again</source>
        <translation>该 PDF 受密码保护；请解除保护后重新附加</translation>
    </message>
    <message>
        <source>the file is damaged and cannot be read; save it again (print a PDF to a new PDF) and attach that</source>
        <translation>文件已损坏，无法读取；请重新保存（把 PDF 打印成新的 PDF）后附加</translation>
    </message>
    <message>
        <source>the PDF has no text layer (a scanned document?); Tandem does not read text in images (no OCR): attach a PDF with text, or the text itself</source>
        <translation>该 PDF 没有文字层（扫描件？）；Tandem 不识别图片中的文字（不提供 OCR）：请附加带文字的 PDF，或直接附加文字</translation>
    </message>
    <message>
        <source>the file cannot be read; check that it exists and can be opened</source>
        <translation>无法读取该文件；请确认它存在且可以打开</translation>
    </message>
    <message>
        <source>Tandem does not read this kind of file; save it as DOCX, PDF or plain text and attach that</source>
        <translation>Tandem 不读取这种文件；请另存为 DOCX、PDF 或纯文本后附加</translation>
    </message>
    <message>
        <source>the document cannot be saved; free some disk space and send again</source>
        <translation>无法保存文档；请释放一些磁盘空间后重新发送</translation>
    </message>
    <message>
        <source>the document is too large to index in the memory left; close other programs or unload a model, or attach a shorter part of it</source>
        <translation>文档太大，剩余内存不足以建立索引；请关闭其他程序或卸载模型，或只附加其中较短的一部分</translation>
    </message>
    <message>
        <source>a document of this conversation is no longer stored; edit the message</source>
        <translation>此对话中的一个文档已不再保存；请编辑该消息</translation>
    </message>
    <message>
        <source>The documents leave no room in the model&apos;s context: start a new conversation, or load the model with a larger context.</source>
        <translation>这些文档让模型的上下文没有余地了：请开始新对话，或用更大的上下文长度加载模型。</translation>
    </message>
    <message>
        <source>{file} · whole document</source>
        <translation>{file} · 整个文档</translation>
    </message>
    <message>
        <source>{file} · page {page}</source>
        <translation>{file} · 第 {page} 页</translation>
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
    <name>EngineHints</name>
    <message>
        <source>Check the server in Settings → Tools; the conversation is kept as it was.</source>
        <translation>请在 设置 → 工具 中检查该服务器；对话保持原样。</translation>
    </message>
    <message>
        <source>Fix the field named above, then try again; nothing was changed.</source>
        <translation>请修正上面指出的字段后重试；没有任何更改。</translation>
    </message>
    <message>
        <source>Check the server&apos;s command (or address) and its settings in Settings → Tools, then start it again.</source>
        <translation>请在 设置 → 工具 中检查服务器的命令（或地址）及其设置，然后重新启动它。</translation>
    </message>
    <message>
        <source>Start the server in Settings → Tools, then send the message again.</source>
        <translation>请在 设置 → 工具 中启动该服务器，然后重新发送消息。</translation>
    </message>
    <message>
        <source>The server may be busy or stuck: try again, or raise its time limit in Settings → Tools.</source>
        <translation>服务器可能正忙或已卡住：请重试，或在 设置 → 工具 中提高它的时间限制。</translation>
    </message>
    <message>
        <source>Start the server again in Settings → Tools; its log may say why it stopped.</source>
        <translation>请在 设置 → 工具 中重新启动该服务器；它的日志可能说明了停止的原因。</translation>
    </message>
    <message>
        <source>The tool reported the error above; change the request or the tool&apos;s settings and try again.</source>
        <translation>该工具报告了上面的错误；请修改请求或工具的设置后重试。</translation>
    </message>
    <message>
        <source>Choose a tool that a running server offers, or let the model choose (tool choice auto).</source>
        <translation>请选择正在运行的服务器提供的工具，或让模型自行选择（工具选择 auto）。</translation>
    </message>
    <message>
        <source>Ask for the configuration that runs (or &quot;auto&quot;), or free memory and try again.</source>
        <translation>请使用正在运行的配置（或 &quot;auto&quot;），或者释放内存后重试。</translation>
    </message>
    <message>
        <source>Attach the picture again: its file changed or went away after it was attached.</source>
        <translation>请重新附加图片：附加后其文件已被更改或删除。</translation>
    </message>
    <message>
        <source>Change the request; the model stays loaded.</source>
        <translation>请修改请求；模型仍保持加载。</translation>
    </message>
    <message>
        <source>Check that the file is a complete model download; delete and download it again if not.</source>
        <translation>请确认该文件是完整下载的模型；如果不是，请删除后重新下载。</translation>
    </message>
    <message>
        <source>Check that the file is a complete model llama.cpp supports, or pick another file.</source>
        <translation>请确认该文件是 llama.cpp 支持的完整模型，或选择其他文件。</translation>
    </message>
    <message>
        <source>Check that the server is running and the endpoint URL is right.</source>
        <translation>请确认服务器正在运行，且端点 URL 正确。</translation>
    </message>
    <message>
        <source>Check the path: most servers answer under /v1, e.g. http://host:8000/v1</source>
        <translation>请检查路径：大多数服务器在 /v1 下应答，例如 http://host:8000/v1</translation>
    </message>
    <message>
        <source>Choose the drafter declared for this model, or turn speculative decoding off.</source>
        <translation>请选择该模型声明的草稿模型，或关闭推测解码。</translation>
    </message>
    <message>
        <source>Connect again.</source>
        <translation>请重新连接。</translation>
    </message>
    <message>
        <source>Download it again or pick another file.</source>
        <translation>请重新下载，或选择其他文件。</translation>
    </message>
    <message>
        <source>Download the drafter declared for this model, or turn speculative decoding off.</source>
        <translation>请下载该模型声明的草稿模型，或关闭推测解码。</translation>
    </message>
    <message>
        <source>Fix the speculative decoding settings and load again.</source>
        <translation>请修正推测解码设置后重新加载。</translation>
    </message>
    <message>
        <source>Give the server&apos;s OpenAI API address, e.g. https://gpu-box.example:8000/v1</source>
        <translation>请填写服务器的 OpenAI API 地址，例如 https://gpu-box.example:8000/v1</translation>
    </message>
    <message>
        <source>Install the engine&apos;s extra (see the README) or choose another engine.</source>
        <translation>请安装该引擎的附加依赖（见 README），或选择其他引擎。</translation>
    </message>
    <message>
        <source>Load a model first.</source>
        <translation>请先加载模型。</translation>
    </message>
    <message>
        <source>Load a model that reads images (a vision model), or remove the images.</source>
        <translation>请加载能读取图片的模型（视觉模型），或移除图片。</translation>
    </message>
    <message>
        <source>Load the model again.</source>
        <translation>请重新加载模型。</translation>
    </message>
    <message>
        <source>Pick one of the models the server lists (tandem remote-models --endpoint URL).</source>
        <translation>请从服务器列出的模型中选择一个（tandem remote-models --endpoint URL）。</translation>
    </message>
    <message>
        <source>See the server&apos;s log for details.</source>
        <translation>详情请查看服务器日志。</translation>
    </message>
    <message>
        <source>Set the key in TANDEM_API_KEY or store it for this endpoint (tandem endpoint-key).</source>
        <translation>请在 TANDEM_API_KEY 中设置密钥，或为此端点保存密钥（tandem endpoint-key）。</translation>
    </message>
    <message>
        <source>Set the repeat penalty to 1 (off), or turn speculative decoding off.</source>
        <translation>请把重复惩罚设为 1（关闭），或关闭推测解码。</translation>
    </message>
    <message>
        <source>Set the temperature to 0, or turn speculative decoding off to sample.</source>
        <translation>请把温度设为 0；若要采样，请关闭推测解码。</translation>
    </message>
    <message>
        <source>Choose one of those, or load the model again with that speculation.</source>
        <translation>请选择其中之一，或以该推测方式重新加载模型。</translation>
    </message>
    <message>
        <source>Shorten the conversation or the message, or load the model with a larger context.</source>
        <translation>请缩短对话或消息，或以更大的上下文加载模型。</translation>
    </message>
    <message>
        <source>Shorten the message, lower Max new tokens, or load the model with a larger context length.</source>
        <translation>请缩短消息、调低“最大新 token 数”，或以更长的上下文长度加载模型。</translation>
    </message>
    <message>
        <source>Start the server, or check the host name and port of the endpoint.</source>
        <translation>请启动服务器，或检查端点的主机名和端口。</translation>
    </message>
    <message>
        <source>The model stays loaded; try again, or reload it if the error repeats.</source>
        <translation>模型仍保持加载；请重试，若错误重复出现请重新加载。</translation>
    </message>
    <message>
        <source>The partial answer is kept. Check the server (it may have stopped) and try again.</source>
        <translation>已保留部分回答。请检查服务器（它可能已停止）后重试。</translation>
    </message>
    <message>
        <source>The server is slow or overloaded; try again, or raise the timeout.</source>
        <translation>服务器较慢或过载；请重试，或调高超时时间。</translation>
    </message>
    <message>
        <source>The server&apos;s HTTPS certificate is not trusted here. Use a certificate from a trusted authority, or add your own CA to the system&apos;s trust store.</source>
        <translation>本机不信任该服务器的 HTTPS 证书。请使用受信任机构签发的证书，或将你自己的 CA 加入系统信任存储。</translation>
    </message>
    <message>
        <source>Turn speculative decoding off for this model.</source>
        <translation>请为此模型关闭推测解码。</translation>
    </message>
    <message>
        <source>Use https:// for servers on other machines, or allow plain HTTP for this endpoint (--allow-http) if it is on a network you trust.</source>
        <translation>其他机器上的服务器请使用 https://；若该端点位于你信任的网络中，也可以允许明文 HTTP（--allow-http）。</translation>
    </message>
    <message>
        <source>Use suffix or prompt-lookup on MLX, choose a drafter model, run the model on llama.cpp, or turn speculative decoding off.</source>
        <translation>请在 MLX 上使用 suffix 或 prompt-lookup、选择一个草稿模型、改用 llama.cpp 运行该模型，或关闭推测解码。</translation>
    </message>
    <message>
        <source>Use the drafter declared for this model (e.g. a Gemma 4 assistant), or turn speculative decoding off.</source>
        <translation>请使用该模型声明的草稿模型（例如 Gemma 4 assistant），或关闭推测解码。</translation>
    </message>
    <message>
        <source>Use the method &apos;draft&apos; for a classic same-vocabulary drafter, or pick the model&apos;s own drafter.</source>
        <translation>对于词表相同的经典草稿模型，请使用方法“draft”，或选择该模型自带的草稿模型。</translation>
    </message>
</context>
<context>
    <name>EngineLoader</name>
    <message>
        <source>Locating model files</source>
        <extracomment>The one name the stats strip and the status bar give an Auto launch.</extracomment>
        <translation>正在定位模型文件</translation>
    </message>
    <message>
        <source>Connecting to {url}</source>
        <translation>正在连接 {url}</translation>
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
        <extracomment>The exception&apos;s own ``hint`` attribute (engine errors): the class that raises knows the cause. (exception type, error code or None for any, hint). Codes: ``CacheError.code`` (HubError: network / auth / not_found) and, for ``OSError``, the errno name (ENOSPC, EACCES...).</extracomment>
        <translation>请安装上面提到的软件包，然后重启 Tandem。</translation>
    </message>
    <message>
        <source>Download the model first (Models page, or the command above), then try again.</source>
        <translation>请先下载模型（在“模型”页面，或运行上面的命令），然后重试。</translation>
    </message>
    <message>
        <source>Free some disk space or choose a smaller quantization, then retry.</source>
        <translation>请释放一些磁盘空间或选择更小的量化版本，然后重试。</translation>
    </message>
    <message>
        <source>Check the network connection and the hub endpoint in Settings, then press Retry.</source>
        <translation>请检查网络连接以及“设置”中的模型仓库端点，然后点击“重试”。</translation>
    </message>
    <message>
        <source>The hub refused access: check the repository id, or store a token for this hub in Settings if the repository is private or gated.</source>
        <translation>模型仓库拒绝访问：请检查仓库 ID；如果该仓库是私有或受限的，请在“设置”中保存此仓库的令牌。</translation>
    </message>
    <message>
        <source>The hub has no such repository or file (or it is private): check the model entry&apos;s repository and file names, or store a token for this hub in Settings.</source>
        <translation>模型仓库中没有该仓库或文件（或者它是私有的）：请检查模型条目中的仓库和文件名，或在“设置”中保存此仓库的令牌。</translation>
    </message>
    <message>
        <source>Check the network and the hub settings, then press Retry.</source>
        <translation>请检查网络和模型仓库设置，然后点击“重试”。</translation>
    </message>
    <message>
        <source>The damaged file was removed; press Retry to download it again.</source>
        <translation>已删除损坏的文件；点击“重试”重新下载。</translation>
    </message>
    <message>
        <source>Press Retry to start the download again.</source>
        <translation>点击“重试”重新开始下载。</translation>
    </message>
    <message>
        <source>The repository has no file for this quantization; the message names the ones it holds. Choose one of those, or press Refresh from hub on the Models page to list them.</source>
        <translation>该仓库没有这个量化版本的文件；消息中列出了它包含的版本。请选择其中之一，或在“模型”页面点击“从模型库刷新”列出它们。</translation>
    </message>
    <message>
        <source>Check the model entry; the message names the field to fix.</source>
        <translation>请检查模型条目；消息中指出了需要修改的字段。</translation>
    </message>
    <message>
        <source>Check the model cache in Settings, then retry.</source>
        <translation>请检查“设置”中的模型缓存，然后重试。</translation>
    </message>
    <message>
        <source>Choose a complete .gguf file (a download that stopped early is incomplete: download it again) or an MLX model folder with its config.json and weights. Nothing was added.</source>
        <translation>请选择完整的 .gguf 文件（中途停止的下载不完整：请重新下载），或包含 config.json 和权重的 MLX 模型文件夹。未添加任何内容。</translation>
    </message>
    <message>
        <source>Correct the sampling settings (temperature, top-p, top-k, max new tokens) and try again.</source>
        <translation>请更正采样设置（温度、top-p、top-k、最大新词元数），然后重试。</translation>
    </message>
    <message>
        <source>Choose another engine or model in the launch dialog.</source>
        <translation>请在启动对话框中选择其他引擎或模型。</translation>
    </message>
    <message>
        <source>The file is not a complete GGUF model: delete it and download it again.</source>
        <translation>该文件不是完整的 GGUF 模型：请删除后重新下载。</translation>
    </message>
    <message>
        <source>Use https:// for a server on another machine, or tick Allow plain HTTP for this endpoint if it is on a network you trust.</source>
        <translation>连接其他机器上的服务器请使用 https://；如果它位于你信任的网络中，也可以为此端点勾选“允许此端点使用明文 HTTP”。</translation>
    </message>
    <message>
        <source>Enter the server&apos;s OpenAI API address, e.g. https://gpu-box.example:8000/v1.</source>
        <translation>请输入服务器的 OpenAI API 地址，例如 https://gpu-box.example:8000/v1。</translation>
    </message>
    <message>
        <source>Start the server, or check the host name and port of the endpoint.</source>
        <translation>请启动服务器，或检查端点的主机名和端口。</translation>
    </message>
    <message>
        <source>The server&apos;s HTTPS certificate is not trusted here: use one from a trusted authority, or add your own CA to the system&apos;s trust store.</source>
        <translation>此处不信任该服务器的 HTTPS 证书：请使用受信任机构签发的证书，或将你自己的 CA 添加到系统信任库。</translation>
    </message>
    <message>
        <source>Enter the server&apos;s API key on the launch dialog&apos;s Remote server tab; Tandem keeps it in the system keyring.</source>
        <translation>请在启动对话框的“远程服务器”标签页中输入服务器的 API 密钥；Tandem 会将其保存在系统密钥环中。</translation>
    </message>
    <message>
        <source>Press List models on the Remote server tab and pick a model the server serves.</source>
        <translation>请在“远程服务器”标签页中点击“列出模型”，并选择服务器提供的模型。</translation>
    </message>
    <message>
        <source>The server is slow or overloaded; try again.</source>
        <translation>服务器响应缓慢或过载；请重试。</translation>
    </message>
    <message>
        <source>The partial answer is kept. Check the server (it may have stopped), then ask again.</source>
        <translation>已保留部分回答。请检查服务器（它可能已停止），然后重新提问。</translation>
    </message>
    <message>
        <source>See the server&apos;s log for details.</source>
        <translation>详情请查看服务器日志。</translation>
    </message>
    <message>
        <source>Tandem may not write there: check the folder&apos;s permissions.</source>
        <translation>Tandem 无权写入该位置：请检查文件夹的权限。</translation>
    </message>
    <message>
        <source>A file Tandem needs is missing; the message names it.</source>
        <translation>缺少 Tandem 需要的文件；消息中给出了文件名。</translation>
    </message>
    <message>
        <source>Check free disk space and permissions, then retry.</source>
        <translation>请检查磁盘剩余空间和权限，然后重试。</translation>
    </message>
    <message>
        <source>Check the engine and model chosen in the launch dialog, then try again.</source>
        <translation>请检查启动对话框中选择的引擎和模型，然后重试。</translation>
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
    <name>FitLabel</name>
    <message>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>Memory use unknown: {reason}</source>
        <translation>内存占用未知：{reason}</translation>
    </message>
    <message>
        <source>Fits in memory ({total:.1f} of {avail:.1f} GiB available)</source>
        <translation>内存充足（需要 {total:.1f} GiB，可用 {avail:.1f} GiB）</translation>
    </message>
    <message>
        <source>Tight: needs {total:.1f} of {avail:.1f} GiB available</source>
        <translation>紧张：需要 {total:.1f} GiB，可用 {avail:.1f} GiB</translation>
    </message>
    <message>
        <source>Too large: needs {total:.1f} GiB, {avail:.1f} GiB available</source>
        <translation>过大：需要 {total:.1f} GiB，可用 {avail:.1f} GiB</translation>
    </message>
    <message>
        <source>Memory use unknown for this quantization</source>
        <translation>此量化的内存占用未知</translation>
    </message>
    <message>
        <source>The KV cache is counted once the file is downloaded (its header gives it).</source>
        <translation>文件下载后才会计入 KV 缓存（由文件头给出）。</translation>
    </message>
</context>
<context>
    <name>HubSearchPanel</name>
    <message>
        <source>Search {hub} (press Enter)</source>
        <translation>搜索 {hub}（按回车）</translation>
    </message>
    <message>
        <source>Search models</source>
        <translation>搜索模型</translation>
    </message>
    <message>
        <source>Type what to look for, then press Enter.</source>
        <translation>输入要查找的内容，然后按回车。</translation>
    </message>
    <message>
        <source>Searching {hub}…</source>
        <translation>正在搜索 {hub}…</translation>
    </message>
    <message>
        <source>Search cancelled.</source>
        <translation>搜索已取消。</translation>
    </message>
    <message>
        <source>No models match this search.</source>
        <translation>没有符合此搜索的模型。</translation>
    </message>
    <message>
        <source>{count} results; choose one to see its files.</source>
        <translation>{count} 个结果；选择一个查看其文件。</translation>
    </message>
    <message>
        <source>Search needs the network; your registry still works.</source>
        <translation>搜索需要网络；你的模型列表仍可使用。</translation>
    </message>
    <message>
        <source>Listing the files of {repo}…</source>
        <translation>正在列出 {repo} 的文件…</translation>
    </message>
    <message>
        <source>Other GGUF files</source>
        <translation>其他 GGUF 文件</translation>
    </message>
    <message>
        <source>{n} parts: {names}</source>
        <translation>{n} 个分卷：{names}</translation>
    </message>
    <message>
        <source>{repo}: {n} files. Add it to your models to download and launch it.</source>
        <translation>{repo}：{n} 个文件。将其添加到你的模型后即可下载并启动。</translation>
    </message>
    <message>
        <source>Could not add it: {reason}</source>
        <translation>无法添加：{reason}</translation>
    </message>
    <message>
        <source>Added {name} to your models.</source>
        <translation>已将 {name} 添加到你的模型。</translation>
    </message>
    <message>
        <source>Catalog</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>My models</source>
        <translation>我的模型</translation>
    </message>
    <message>
        <source>Where the search field looks: the catalog, the models on this computer, or a hub</source>
        <translation>搜索框的查找范围：目录、本机上的模型，或某个模型仓库</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation>下载量</translation>
    </message>
    <message>
        <source>Likes</source>
        <translation>点赞</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <source>Formats</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Quantization / file</source>
        <translation>量化 / 文件</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>More results</source>
        <translation>更多结果</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Add to my models</source>
        <translation>添加到我的模型</translation>
    </message>
    <message>
        <source>Import model…</source>
        <translation>导入模型…</translation>
    </message>
    <message>
        <source>Add a .gguf file or an MLX folder from this computer (or drop it on the window)</source>
        <translation>从这台电脑添加 .gguf 文件或 MLX 文件夹（也可以拖放到窗口上）</translation>
    </message>
</context>
<context>
    <name>ImageViewer</name>
    <message>
        <source>Image</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>{w} × {h} pixels, {kb} KB</source>
        <translation>{w} × {h} 像素，{kb} KB</translation>
    </message>
</context>
<context>
    <name>ImportController</name>
    <message>
        <source>Import model</source>
        <translation>导入模型</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF 模型 (*.gguf)</translation>
    </message>
    <message>
        <source>Models (*.gguf config.json)</source>
        <translation>模型 (*.gguf config.json)</translation>
    </message>
    <message>
        <source>MLX model folder: its config.json (config.json)</source>
        <translation>MLX 模型文件夹：选择其中的 config.json (config.json)</translation>
    </message>
    <message>
        <source>Could not import the model</source>
        <translation>无法导入模型</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <source>Import model</source>
        <translation>导入模型</translation>
    </message>
    <message>
        <source>Compatible drafters (same vocabulary, smaller):</source>
        <translation>兼容的草稿模型（词表相同、更小）：</translation>
    </message>
    <message>
        <source>Use as drafter</source>
        <translation>用作草稿模型</translation>
    </message>
    <message>
        <source>Launch…</source>
        <translation>启动…</translation>
    </message>
    <message>
        <source>Registered {name} ({fmt}, {quant}) from {path}.</source>
        <translation>已从 {path} 注册 {name}（{fmt}，{quant}）。</translation>
    </message>
    <message>
        <source>{name} is already in your models ({fmt}, {quant}, {path}).</source>
        <translation>{name} 已在你的模型中（{fmt}，{quant}，{path}）。</translation>
    </message>
    <message>
        <source>Looking for compatible drafters…</source>
        <translation>正在查找兼容的草稿模型…</translation>
    </message>
    <message>
        <source>The drafter search failed: {reason}</source>
        <translation>草稿模型查找失败：{reason}</translation>
    </message>
    <message>
        <source>Choose a drafter to pair with it, or launch it alone.</source>
        <translation>选择一个草稿模型与之搭配，或单独启动。</translation>
    </message>
    <message>
        <source>No compatible drafter found nearby; it can still run alone or with a model-free method.</source>
        <translation>附近没有找到兼容的草稿模型；它仍可单独运行，或使用无需模型的方法。</translation>
    </message>
    <message>
        <source>Not offered:</source>
        <translation>未提供：</translation>
    </message>
    <message>
        <source>{drafter} is now its drafter.</source>
        <translation>{drafter} 现已作为它的草稿模型。</translation>
    </message>
</context>
<context>
    <name>LaunchCoordinator</name>
    <message>
        <source>The model could not be loaded</source>
        <extracomment>the choice of the last load started (the Auto notice reloads it)</extracomment>
        <translation>无法加载模型</translation>
    </message>
    <message>
        <source>Downloading; the model loads when the download finishes.</source>
        <translation>正在下载；下载完成后将加载模型。</translation>
    </message>
    <message>
        <source>The download could not be queued</source>
        <translation>无法加入下载队列</translation>
    </message>
    <message>
        <source>Speculation is off for this model now.</source>
        <translation>此模型现已关闭推测解码。</translation>
    </message>
    <message>
        <source>The default model is not available</source>
        <translation>默认模型不可用</translation>
    </message>
    <message>
        <source>{model} could not be reopened: {reason}</source>
        <translation>无法重新打开 {model}：{reason}</translation>
    </message>
    <message>
        <source>Your last model was not reopened</source>
        <translation>未能重新打开上次使用的模型</translation>
    </message>
    <message>
        <source>The default model is loaded instead. Download the model again from the Models page.</source>
        <translation>已改为加载默认模型。请在“模型”页面重新下载该模型。</translation>
    </message>
    <message>
        <source>the {engine} engine is not available ({reason})</source>
        <translation>{engine} 引擎不可用（{reason}）</translation>
    </message>
    <message>
        <source>its files are no longer on disk</source>
        <translation>它的文件已不在磁盘上</translation>
    </message>
    <message>
        <source>its drafter&apos;s files are no longer on disk</source>
        <translation>它的草稿模型文件已不在磁盘上</translation>
    </message>
</context>
<context>
    <name>LaunchDialog</name>
    <message>
        <source>This engine is not available here: {reason}</source>
        <extracomment>Each note code&apos;s sentence, in the dialog&apos;s translation context (the sentences and their translations are the ones the dialog always had); parameters are filled in by ``_say``.</extracomment>
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
        <source>{path}
Compatible: {reason}</source>
        <extracomment>the one state of the form: every widget change replaces it, every widget shows it</extracomment>
        <translation>{path}
兼容：{reason}</translation>
    </message>
    <message>
        <source>Not offered:</source>
        <translation>未提供：</translation>
    </message>
    <message>
        <source>Runs the drafter file chosen below beside the model: it proposes several tokens per round and the model verifies them in one pass, so the answer is identical. It was found on this computer with the same vocabulary; nothing is downloaded.</source>
        <translation>在模型旁运行下方选择的草稿模型文件：它每轮提出若干个词元，由模型一次性验证，因此回答完全相同。该文件是在这台电脑上找到的，词表相同；无需下载任何内容。</translation>
    </message>
    <message>
        <source>The drafter ({quant}) is not downloaded, so Auto measures without it. Download it from the Models page to let Auto try it.</source>
        <translation>草稿模型（{quant}）尚未下载，因此 Auto 不使用它进行测量。在“模型”页面下载后，Auto 即可尝试它。</translation>
    </message>
    <message>
        <source>Looking for a compatible drafter on this computer…</source>
        <translation>正在这台电脑上查找兼容的草稿模型…</translation>
    </message>
    <message>
        <source>No compatible drafter found on this computer. Download a smaller model of the same family (same vocabulary) to draft for it, or use a model-free method.</source>
        <translation>这台电脑上没有找到兼容的草稿模型。请下载同一系列中更小的模型（词表相同）作为草稿模型，或使用无需模型的方法。</translation>
    </message>
    <message>
        <source>The drafter search failed: {detail}</source>
        <translation>草稿模型搜索失败：{detail}</translation>
    </message>
    <message>
        <source>This model reads images with its projector (mmproj), which is not downloaded: this launch reads text only. Download the model again from the Models page to fetch it.</source>
        <translation>此模型通过其投影器（mmproj）读取图片，但投影器尚未下载：本次启动只能读取文本。请在“模型”页重新下载该模型以获取它。</translation>
    </message>
    <message>
        <source>{method} cannot run with pictures on this llama.cpp: this launch reads text only. Choose another speculation method to send pictures.</source>
        <translation>在此 llama.cpp 上 {method} 无法与图片一起运行：本次启动只能读取文本。要发送图片，请选择其他推测方法。</translation>
    </message>
    <message>
        <source>Max new tokens ({max}) must be less than the context length ({ctx}): the conversation needs room in the context too.</source>
        <translation>最大新 Token 数（{max}）必须小于上下文长度（{ctx}）：对话本身也需要占用上下文。</translation>
    </message>
    <message>
        <source>These sampling values cannot be used: {detail}</source>
        <extracomment>A note code without a sentence of its own: a sampling value the form refused.</extracomment>
        <translation>这些采样值无法使用：{detail}</translation>
    </message>
    <message>
        <source>Reads images: its vision tower is part of the model.</source>
        <translation>可读取图片：视觉编码器包含在模型中。</translation>
    </message>
    <message>
        <source>Reads images with its projector. With pictures, speculation runs with {methods}; not with {refused}.</source>
        <translation>通过投影器读取图片。带图片时，推测解码可使用 {methods}；不能使用 {refused}。</translation>
    </message>
    <message>
        <source>Reads images with its projector; speculation runs with pictures too.</source>
        <translation>通过投影器读取图片；带图片时推测解码同样可用。</translation>
    </message>
    <message>
        <source>{engine} computes on the GPU (Metal), so it does not use a CPU thread count; this field does not apply.</source>
        <translation>{engine} 在 GPU（Metal）上计算，不使用 CPU 线程数；此字段不适用。</translation>
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
        <source>Suffix decoding: drafts from your earlier questions and answers (kept on this computer), so a regenerated or similar answer comes out many tokens per round; the model still checks every token, so the answer is the same. Settings &gt; Forget learned text deletes what it learned; deleting a conversation deletes what that conversation taught.</source>
        <translation>后缀解码：根据你之前的问题和回答（仅保存在这台电脑上）起草，因此重新生成或相似的回答每轮可输出许多词元；模型仍会检查每个词元，所以回答完全相同。设置 &gt; 忘记已学习的文本 会删除它学到的内容；删除对话会删除该对话教给它的内容。</translation>
    </message>
    <message>
        <source>Prompt lookup: drafts by copying from this request&apos;s own text (the conversation so far), nothing is kept between requests. It helps when the answer repeats the question, such as editing code.</source>
        <translation>提示查找：从本次请求自身的文本（到目前为止的对话）中复制来起草，请求之间不保留任何内容。当回答重复问题内容时（例如编辑代码）最有帮助。</translation>
    </message>
    <message>
        <source>Suffix decoding</source>
        <translation>后缀解码</translation>
    </message>
    <message>
        <source>Prompt lookup</source>
        <translation>提示查找</translation>
    </message>
    <message>
        <source>engine default: {value}</source>
        <translation>引擎默认 {value}</translation>
    </message>
    <message>
        <source>This conversation has pictures, and this model reads text only: a message with a picture cannot go to it. Choose a model that reads images, or start a new conversation.</source>
        <extracomment>What the launch dialog says when the conversation that launches has pictures this launch cannot read (``CHAT_IMAGES_UNREADABLE``), by the note&apos;s ``why``.</extracomment>
        <translation>此对话包含图片，而此模型只能读取文字：带图片的消息无法发送给它。请选择能读取图片的模型，或开始新的对话。</translation>
    </message>
    <message>
        <source>This conversation has pictures, but this launch reads text only: the model&apos;s image projector (mmproj) is not downloaded. Download the model again from the Models page.</source>
        <translation>此对话包含图片，但这次启动只能读取文字：模型的图像投影器（mmproj）尚未下载。请在“模型”页面重新下载该模型。</translation>
    </message>
    <message>
        <source>This conversation has pictures, but {method} cannot run with pictures here: this launch reads text only. Choose another speculation method to send them.</source>
        <translation>此对话包含图片，但 {method} 在这里无法处理图片：这次启动只能读取文字。请选择其他推测方法以发送图片。</translation>
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
        <source>On MLX suffix decoding and prompt lookup this is the longest draft in a round; a round drafts fewer when the learned text is less sure.</source>
        <translation>在 MLX 的后缀解码和提示查找中，这是一轮中最长的草稿；当已学习的文本不太确定时，一轮起草的词元会更少。</translation>
    </message>
    <message>
        <source>On MLX this is the drafter&apos;s block size minus the verified token; empty uses the depth the drafter was trained for.</source>
        <translation>在 MLX 上，此值为草稿模型的块大小减去已验证的 Token；留空则使用草稿模型训练时的深度。</translation>
    </message>
    <message>
        <source>On llama.cpp n-gram methods this is the longest draft taken from earlier text in a round.</source>
        <translation>在 llama.cpp 的 n-gram 方法中，此值为每轮从先前文本中取得的最长草稿。</translation>
    </message>
    <message>
        <source>On llama.cpp this is the drafter&apos;s maximum draft length (draft.n_max); a round may draft fewer when the drafter is unsure.</source>
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
        <source>the drafter&apos;s trained depth</source>
        <translation>草稿模型训练时的深度</translation>
    </message>
    <message>
        <source>not offered by this engine</source>
        <translation>此引擎不提供</translation>
    </message>
    <message>
        <source>Tandem&apos;s longest draft for this method</source>
        <translation>Tandem 为此方法设定的最长草稿</translation>
    </message>
    <message>
        <source>Tandem&apos;s longest draft; each round&apos;s depth follows the measured acceptance</source>
        <translation>Tandem 的最长草稿；每一轮的深度随实测的接受率而定</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s own default</source>
        <translation>llama.cpp 自身的默认值</translation>
    </message>
    <message>
        <source>Drafts with the model&apos;s own multi-token prediction (MTP) heads: they propose several tokens per round and the model verifies them in one pass, so the answer is identical. The heads are part of the model&apos;s file; nothing is downloaded.</source>
        <translation>使用模型自带的多词元预测（MTP）头起草：它们每轮提出若干个词元，由模型一次性验证，因此回答完全相同。这些头是模型文件的一部分；无需下载任何内容。</translation>
    </message>
    <message>
        <source>Runs a small drafter beside the model. The drafter proposes several tokens per round and the model verifies them in one pass: the answer is identical, decoding is faster.</source>
        <translation>在模型旁运行一个小型草稿模型。草稿模型每轮提出若干个词元，由模型一次性验证：回答完全相同，解码更快。</translation>
    </message>
    <message>
        <source>The drafter ({quant}) is already on this computer; nothing is downloaded.</source>
        <translation>草稿模型（{quant}）已在这台电脑上；无需下载任何内容。</translation>
    </message>
    <message>
        <source>The drafter ({quant}) is not on this computer yet: launching with it on downloads it first.</source>
        <translation>草稿模型（{quant}）尚未在这台电脑上：开启后启动会先下载它。</translation>
    </message>
    <message>
        <source>Auto is off: this launch answers without speculation. Turn Auto on to let Tandem choose, or choose a drafter or a model-free method below.</source>
        <translation>Auto 已关闭：本次启动不使用推测解码来回答。打开 Auto 让 Tandem 来选择，或在下方选择草稿模型或无模型方法。</translation>
    </message>
    <message>
        <source>the model&apos;s own MTP heads</source>
        <translation>模型自带的 MTP 头</translation>
    </message>
    <message>
        <source>the MTP assistant</source>
        <translation>MTP 辅助模型</translation>
    </message>
    <message>
        <source>the drafter model ({method})</source>
        <translation>草稿模型（{method}）</translation>
    </message>
    <message>
        <source>the drafter model</source>
        <translation>这个草稿模型</translation>
    </message>
    <message>
        <source>This launch drafts with {what}, as many tokens per round as the engine&apos;s default.</source>
        <translation>本次启动用{what}起草，每轮词元数为引擎默认值。</translation>
    </message>
    <message>
        <source>This launch drafts with {what}, up to {depth} tokens per round.</source>
        <translation>本次启动用{what}起草，每轮最多 {depth} 个词元。</translation>
    </message>
    <message>
        <source>Auto is off.</source>
        <translation>Auto 已关闭。</translation>
    </message>
    <message>
        <source>Auto is off while the drafter is on: turn the drafter off to go back to Auto.</source>
        <translation>草稿模型开启期间 Auto 关闭：关闭草稿模型即可回到 Auto。</translation>
    </message>
    <message>
        <source>Auto is off while a model-free method is chosen: choose Off there to go back to Auto.</source>
        <translation>选择了无模型方法期间 Auto 关闭：在那里选择“关闭”即可回到 Auto。</translation>
    </message>
    <message>
        <source>the model card</source>
        <translation>模型卡片</translation>
    </message>
    <message>
        <source>Starts at {value}, recommended by the model card ({source}).</source>
        <translation>初始值为 {value}，由模型卡片推荐（{source}）。</translation>
    </message>
    <message>
        <source>Starts at {value}, Tandem&apos;s default (Settings).</source>
        <translation>初始值为 {value}，即 Tandem 的默认值（设置）。</translation>
    </message>
    <message>
        <source>Launch {name}</source>
        <translation>启动 {name}</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Remote server</source>
        <translation>远程服务器</translation>
    </message>
    <message>
        <source>Chat through your own vLLM, SGLang or llama-server (an OpenAI-compatible API).</source>
        <translation>通过你自己的 vLLM、SGLang 或 llama-server（OpenAI 兼容 API）聊天。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Speculation</source>
        <translation>推测策略</translation>
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
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Only engines that can run this model&apos;s format are listed.</source>
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
        <source>Drafter</source>
        <translation>草稿模型</translation>
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
        <source>CPU threads the engine computes with.</source>
        <translation>引擎计算时使用的 CPU 线程。</translation>
    </message>
    <message>
        <source>{n} threads, as typed. Automatic would start with {auto}: the cores that do math on this computer.</source>
        <translation>{n} 个线程（手动输入）。自动会使用 {auto} 个：这台电脑上负责计算的核心数。</translation>
    </message>
    <message>
        <source>Automatic: {n} threads, one per performance core ({n} of {cpus} CPUs), as llama.cpp counts them.</source>
        <translation>自动：{n} 个线程，每个性能核心一个（{cpus} 个 CPU 中的 {n} 个），与 llama.cpp 的计法相同。</translation>
    </message>
    <message>
        <source>Automatic: {n} threads, one per physical core ({cpus} CPUs with hyper-threading), as llama.cpp counts them.</source>
        <translation>自动：{n} 个线程，每个物理核心一个（含超线程共 {cpus} 个 CPU），与 llama.cpp 的计法相同。</translation>
    </message>
    <message>
        <source>Automatic: {n} threads, one per core, as llama.cpp counts them.</source>
        <translation>自动：{n} 个线程，每个核心一个，与 llama.cpp 的计法相同。</translation>
    </message>
    <message>
        <source>Fewer when other programs keep cores busy or another model computes at the same time: each model starts with the cores that are free then, and an idle model follows them.</source>
        <translation>当其他程序占用核心或另一个模型同时计算时会更少：每个模型以当时空闲的核心启动，空闲的模型会随之调整。</translation>
    </message>
    <message>
        <source>Automatic: the context the model was trained for, as far as the memory estimate allows (at least 4,096 tokens). Coding agents need 8,192 tokens or more.</source>
        <translation>自动：模型训练时的上下文长度，在内存估算允许的范围内（至少 4,096 个 token）。编程智能体需要 8,192 个 token 或更多。</translation>
    </message>
    <message>
        <source>Automatic: {n} threads</source>
        <translation>自动：{n} 个线程</translation>
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
        <source>Repeat penalty</source>
        <translation>重复惩罚</translation>
    </message>
    <message>
        <source>Higher gives more varied answers; 0 always picks the most likely token.</source>
        <translation>越高回答越多样；0 总是选择最可能的 token。</translation>
    </message>
    <message>
        <source>Samples only from the most likely tokens that together reach this probability.</source>
        <translation>只从累计概率达到此值的最可能 token 中采样。</translation>
    </message>
    <message>
        <source>Samples only from this many most likely tokens; 0 is off.</source>
        <translation>只从这么多个最可能的 token 中采样；0 表示关闭。</translation>
    </message>
    <message>
        <source>Above 1 makes repeating recent text less likely; 1 is off.</source>
        <translation>大于 1 会降低重复最近文本的可能性；1 表示关闭。</translation>
    </message>
    <message>
        <source>The longest answer, in tokens. Starts at {value}, Tandem&apos;s default (Settings).</source>
        <translation>回答的最大长度（token 数）。初始值为 {value}，即 Tandem 的默认值（设置）。</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>启动</translation>
    </message>
</context>
<context>
    <name>LoadBar</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
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
        <source>Each conversation&apos;s speculation runs in a configuration of the loaded model, started on first use beside it and stopped when idle; the weights are shared, each configuration adds its own cache.</source>
        <translation>每个对话的推测解码在已加载模型的某个配置中运行：首次使用时在其旁边启动，空闲时停止；权重共享，每个配置只增加自己的缓存。</translation>
    </message>
    <message>
        <source>Loading {name}…</source>
        <translation>正在加载 {name}…</translation>
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
        <source>Eject</source>
        <extracomment>how often the memory, the threads and the pool are read again (ms) the loaded model&apos;s engine pool: the configurations running now the loaded models, their memory and an Unload each (a menu)</extracomment>
        <translation>卸载</translation>
    </message>
    <message>
        <source>Unload the model and free the memory it holds</source>
        <translation>卸载模型并释放其占用的内存</translation>
    </message>
    <message>
        <source>as set in the launch dialog</source>
        <translation>按启动对话框中的设置</translation>
    </message>
    <message>
        <source>one per core that does math ({n}), all free</source>
        <translation>每个负责计算的核心一个（{n} 个），全部空闲</translation>
    </message>
    <message>
        <source>other programs keep {busy} of the {n} cores that do math busy</source>
        <translation>其他程序占用了 {n} 个计算核心中的 {busy} 个</translation>
    </message>
    <message>
        <source>other models hold {shared} of the {n} cores that do math</source>
        <translation>其他模型占用了 {n} 个计算核心中的 {shared} 个</translation>
    </message>
    <message>
        <source>every core that does math is taken, so the fewest</source>
        <translation>所有计算核心都被占用，因此用最少的线程</translation>
    </message>
    <message>
        <source>Auto&apos;s measurement found that more threads do not pay here</source>
        <translation>Auto 的测量发现在这里更多线程没有好处</translation>
    </message>
    <message>
        <source>CPU threads of the model&apos;s llama.cpp processes:</source>
        <translation>模型的 llama.cpp 进程使用的 CPU 线程：</translation>
    </message>
    <message>
        <source>the model</source>
        <translation>已加载的模型</translation>
    </message>
    <message>
        <source>{configuration}: {n} threads</source>
        <translation>{configuration}：{n} 个线程</translation>
    </message>
    <message>
        <source>A model at rest follows the free cores; a thread count set in the launch dialog wins.</source>
        <translation>空闲的模型会跟随空闲核心调整；在启动对话框中设置的线程数优先。</translation>
    </message>
    <message>
        <source>This conversation&apos;s choice, beside its title; the model was loaded with {launch}</source>
        <translation>这是本会话的选择（在会话标题旁）；模型加载时使用的是 {launch}</translation>
    </message>
    <message>
        <source>no speculation</source>
        <translation>无推测</translation>
    </message>
    <message>
        <source>Models: {n} ({memory})</source>
        <translation>模型：{n}（{memory}）</translation>
    </message>
    <message>
        <source>Loaded models: {memory} of the {budget} they may take together. A model used before stays loaded while it fits; the least recently used one goes first.</source>
        <translation>已加载的模型：共占用 {memory}，上限 {budget}。之前用过的模型在内存允许时保持加载；最久未用的先卸载。</translation>
    </message>
    <message>
        <source>Unload {model} ({memory})</source>
        <translation>卸载 {model}（{memory}）</translation>
    </message>
    <message>
        <source>(answers now)</source>
        <translation>（当前作答）</translation>
    </message>
    <message>
        <source>It is answering; unload it after.</source>
        <translation>它正在作答；请在回答结束后卸载。</translation>
    </message>
    <message>
        <source>Also running: {configurations} (+{memory})</source>
        <translation>同时运行：{configurations}（+{memory}）</translation>
    </message>
    <message>
        <source>{configuration}: {tps} tok/s (answers: {requests})</source>
        <translation>{configuration}：{tps} tok/s（回答数：{requests}）</translation>
    </message>
    <message>
        <source>Model unloaded; its memory is freed.</source>
        <translation>模型已卸载，其内存已释放。</translation>
    </message>
    <message>
        <source>Loading cancelled</source>
        <translation>已取消加载</translation>
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
        <source>Settings could not be saved</source>
        <translation>无法保存设置</translation>
    </message>
    <message>
        <source>Quit Tandem?</source>
        <extracomment>the question Quit asks while an answer is being written (None when not open)</extracomment>
        <translation>退出 Tandem？</translation>
    </message>
    <message>
        <source>An answer is still being written. Quitting stops it.</source>
        <translation>仍在生成回答。退出会停止它。</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
</context>
<context>
    <name>MessageBubble</name>
    <message>
        <source>Tool call</source>
        <translation>工具调用</translation>
    </message>
    <message>
        <source>Writing the answer…</source>
        <translation>正在撰写回答…</translation>
    </message>
    <message>
        <source>Stopped before the first word.</source>
        <translation>在第一个词之前已停止。</translation>
    </message>
    <message>
        <source>Interrupted before the first word.</source>
        <translation>在第一个词之前被中断。</translation>
    </message>
    <message>
        <source>Failed before the first word.</source>
        <translation>在第一个词之前失败。</translation>
    </message>
    <message>
        <source>The model gave an empty answer.</source>
        <translation>模型给出了空回答。</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>Tool result</source>
        <translation>工具结果</translation>
    </message>
    <message>
        <source>Result of {name}</source>
        <translation>{name} 的结果</translation>
    </message>
    <message>
        <source>Show or hide what the tool returned</source>
        <translation>显示或隐藏工具返回的内容</translation>
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
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>Tandem was closed while this answer was being written; the text saved so far is shown. Regenerate writes it again.</source>
        <translation>写这个回答时 Tandem 被关闭了；这里显示已保存的部分。点“重新生成”可重新写出回答。</translation>
    </message>
    <message>
        <source>Earlier turns were left out to fit the model&apos;s context.</source>
        <translation>为适应模型的上下文长度，较早的对话轮次未发送。</translation>
    </message>
    <message>
        <source>Messages not sent to the model: {count}. Only the newest turns fit.</source>
        <translation>未发送给模型的消息：{count} 条。只有最新的几轮能放得下。</translation>
    </message>
    <message>
        <source>Copy</source>
        <extracomment>a streamed answer&apos;s finished blocks go into frozen labels of about this many characters each, so appending a block lays out one bounded label, never the whole answer a streamed answer longer than this keeps its frozen labels when it ends (rendering a long answer again as one text holds the window at its end); shorter ones end as one text, as a loaded answer shows the colours and labels of the last render: a new palette or language renders again earlier messages left out of this answer&apos;s prompt to fit the context (0: none) the loaded family&apos;s ``tool_parser`` (tool calls shown as blocks) an answer&apos;s tool calls, one block each, under its text a ``tool`` message: the tool whose result it is what an answer not written yet is doing (&quot;Reading the documents…&quot;); &quot;&quot; for the usual note the message&apos;s images, above its text; click one to enlarge it a user message&apos;s documents, as chips under its images; click one to open it an answer&apos;s sources: the documents and passages it was given</extracomment>
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
    <name>ModelChoice</name>
    <message>
        <source>Loaded model ({name})</source>
        <extracomment>the mark of a loaded model in the list</extracomment>
        <translation>已加载的模型（{name}）</translation>
    </message>
    <message>
        <source>Loaded model</source>
        <translation>已加载的模型</translation>
    </message>
    <message>
        <source>Answer with whatever model is loaded</source>
        <translation>使用当前已加载的模型作答</translation>
    </message>
    <message>
        <source>Loaded: answers at once</source>
        <translation>已加载：立即作答</translation>
    </message>
    <message>
        <source>On disk: the next message loads it</source>
        <translation>在磁盘上：下一条消息会加载它</translation>
    </message>
    <message>
        <source>No longer on disk: download it again from the Models page</source>
        <translation>已不在磁盘上：请在“模型”页面重新下载</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>The model this conversation answers with. Another model loads with your next message; the one used before stays loaded while memory allows.</source>
        <translation>此对话使用的模型。选择其他模型后，下一条消息会加载它；之前用过的模型在内存允许时保持加载。</translation>
    </message>
</context>
<context>
    <name>ModelFilesController</name>
    <message>
        <source>The repository could not be listed</source>
        <translation>无法列出该仓库的文件</translation>
    </message>
    <message>
        <source>Listing the repository…</source>
        <translation>正在列出仓库文件…</translation>
    </message>
    <message>
        <source>{repo} holds {n} quantizations.</source>
        <translation>{repo} 包含 {n} 个量化版本。</translation>
    </message>
    <message>
        <source>Added: {quants}.</source>
        <translation>已添加：{quants}。</translation>
    </message>
    <message>
        <source>Not in the repository: {quants}.</source>
        <translation>仓库中没有：{quants}。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Drafter quantizations: {quants}.</source>
        <translation>草稿模型量化版本：{quants}。</translation>
    </message>
    <message>
        <source>The files could not be deleted</source>
        <translation>无法删除文件</translation>
    </message>
    <message>
        <source>Removed {model} from Tandem with its unfinished download ({size}).</source>
        <translation>已从 Tandem 移除 {model}，连同其未完成的下载（{size}）。</translation>
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
</context>
<context>
    <name>RegistryModel</name>
    <message>
        <source>Downloaded</source>
        <extracomment>The roles the spec tree answers; a repaint asks every cell for a dozen roles (font, background, check state...), so the others return before any work (browser case). The family table stores exactly its roles in Qt items. &quot;disk&quot;: what the family&apos;s files use, measured for the &quot;My models&quot; scope only</extracomment>
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
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>unverified</source>
        <translation>未核实</translation>
    </message>
    <message>
        <source>{hub}: unverified. No stored public page confirms {repo} and its file names; the download checks the repository&apos;s own listing and says what it finds.</source>
        <translation>{hub}：未核实。没有已保存的公开页面能确认 {repo} 及其文件名；下载时会检查仓库自身的文件列表，并说明找到了什么。</translation>
    </message>
    <message>
        <source>{hub}: checked on {date} against {url}</source>
        <translation>{hub}：已于 {date} 依据 {url} 核实</translation>
    </message>
    <message>
        <source>Mixture of experts: {active}B of {total}B parameters run per token. A drafter often slows MoE models down: verifying several drafted tokens wakes more experts than generating one.</source>
        <translation>混合专家模型：每个词元运行 {total}B 参数中的 {active}B。草稿模型常常会让 MoE 模型变慢：验证多个草稿词元会唤醒比生成一个词元更多的专家。</translation>
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
        <source>On disk</source>
        <translation>占用</translation>
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
        <source>Measuring the disk its files use…</source>
        <translation>正在计算其文件占用的磁盘空间…</translation>
    </message>
    <message>
        <source>invalid</source>
        <translation>无效</translation>
    </message>
    <message>
        <source>Variant</source>
        <extracomment>the memory verdicts of the shown family, computed off the GUI thread (None: no column) the recommendations of the last verdict batch asked for (kept with the batch itself)</extracomment>
        <translation>版本</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Will it fit in this machine&apos;s free memory at the context length of the settings? ★ marks the largest quantization that fits.</source>
        <translation>按设置中的上下文长度，能否放进本机的可用内存？★ 标出能放下的最大量化。</translation>
    </message>
    <message>
        <source>A small model that proposes tokens for this one to verify; used by speculative decoding.</source>
        <translation>一个为本模型提出待验证 Token 的小模型；用于推测解码。</translation>
    </message>
    <message>
        <source>The vision projector (mmproj) that lets this model read images; it is downloaded with the model and deleted with it.</source>
        <translation>让此模型能够读取图片的视觉投影器（mmproj）；它随模型一起下载，也随模型一起删除。</translation>
    </message>
    <message>
        <source>with drafter</source>
        <translation>带草稿模型</translation>
    </message>
    <message>
        <source>built-in MTP</source>
        <translation>内置 MTP</translation>
    </message>
    <message>
        <source>Drafter quantizations</source>
        <translation>草稿模型量化</translation>
    </message>
    <message>
        <source>Image projector (mmproj)</source>
        <translation>图像投影器（mmproj）</translation>
    </message>
    <message>
        <source>Model quantizations</source>
        <translation>模型量化</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>Memory use unknown: {reason}</source>
        <translation>内存占用未知：{reason}</translation>
    </message>
    <message>
        <source>Estimating the memory it needs…</source>
        <translation>正在估算所需内存…</translation>
    </message>
    <message>
        <source>The disk its files use: every downloaded quantization, its drafters and its image projector. A file several models share is counted once.</source>
        <translation>其文件占用的磁盘空间：所有已下载的量化版本、草稿模型和图像投影器。多个模型共用的文件只计算一次。</translation>
    </message>
    <message>
        <source>{size} on disk</source>
        <translation>占用 {size}</translation>
    </message>
    <message>
        <source>({size} of it in unfinished downloads)</source>
        <translation>（其中 {size} 为未完成的下载）</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>可放下</translation>
    </message>
    <message>
        <source>Tight</source>
        <translation>紧张</translation>
    </message>
    <message>
        <source>Too large</source>
        <translation>过大</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>{size} (estimated from the parameter count)</source>
        <translation>{size}（按参数量估算）</translation>
    </message>
    <message>
        <source>{size} (from the hub listing)</source>
        <translation>{size}（来自模型库的文件列表）</translation>
    </message>
    <message>
        <source>{size} (as the hub listed it when the catalog entry was checked)</source>
        <translation>{size}（核实目录条目时模型库列出的大小）</translation>
    </message>
    <message>
        <source>unknown until a file is downloaded (its header gives it)</source>
        <translation>下载文件后才能得知（由其文件头给出）</translation>
    </message>
    <message>
        <source>unknown until it is listed or downloaded</source>
        <translation>列出或下载后才能得知</translation>
    </message>
    <message>
        <source>{verdict} at {ctx} tokens</source>
        <translation>{ctx} 个词元时：{verdict}</translation>
    </message>
    <message>
        <source>Weights: {size}</source>
        <translation>权重：{size}</translation>
    </message>
    <message>
        <source>KV cache: {size}</source>
        <translation>KV 缓存：{size}</translation>
    </message>
    <message>
        <source>Drafter: {size}</source>
        <translation>草稿模型：{size}</translation>
    </message>
    <message>
        <source>Overhead: {size}</source>
        <translation>额外开销：{size}</translation>
    </message>
    <message>
        <source>Total: {size}</source>
        <translation>合计：{size}</translation>
    </message>
    <message>
        <source>Available now: {size}</source>
        <translation>当前可用：{size}</translation>
    </message>
    <message>
        <source>★ The largest quantization that fits</source>
        <translation>★ 能放下的最大量化</translation>
    </message>
</context>
<context>
    <name>RemoteTab</name>
    <message>
        <source>Stored in the system keyring for this endpoint when the server answers.</source>
        <extracomment>(server engine, label) offered for the serve command None: no key was typed; True: stored in the keyring; False: the keyring did not keep it</extracomment>
        <translation>服务器响应后，将为此端点保存到系统密钥环中。</translation>
    </message>
    <message>
        <source>A key is stored in the keyring for this endpoint; leave the field empty to use it.</source>
        <translation>密钥环中已为此端点保存了密钥；留空即可使用它。</translation>
    </message>
    <message>
        <source>Asking {url} for its models…</source>
        <translation>正在向 {url} 查询模型…</translation>
    </message>
    <message>
        <source>{n} model(s) on this server ({kind}).</source>
        <translation>此服务器上有 {n} 个模型（{kind}）。</translation>
    </message>
    <message>
        <source>The system keyring did not keep the key: Tandem uses it for this launch only.</source>
        <translation>系统密钥环未能保存该密钥：Tandem 仅在本次启动中使用它。</translation>
    </message>
    <message>
        <source>The server&apos;s models could not be listed</source>
        <translation>无法列出服务器的模型</translation>
    </message>
    <message>
        <source>OpenAI-compatible</source>
        <translation>OpenAI 兼容</translation>
    </message>
    <message>
        <source>The statistics strip shows the rounds and acceptance this server reports (when it runs with a drafter).</source>
        <translation>统计栏会显示此服务器报告的轮次和接受率（当它带草稿模型运行时）。</translation>
    </message>
    <message>
        <source>This server does not report acceptance: the statistics strip shows its speed only.</source>
        <translation>此服务器不报告接受率：统计栏只显示其速度。</translation>
    </message>
    <message>
        <source>The server&apos;s own launch settings decide speculation. The statistics strip shows the rounds and acceptance where the server reports them (llama.cpp timings, vLLM and SGLang metrics).</source>
        <translation>推测解码由服务器自己的启动设置决定。统计栏会显示服务器报告的轮次和接受率（llama.cpp timings、vLLM 和 SGLang 指标）。</translation>
    </message>
    <message>
        <source>The baseline must be another server: the same model without a drafter.</source>
        <translation>基准必须是另一台服务器：同一模型，不带草稿模型。</translation>
    </message>
    <message>
        <source>Verify needs a second server of the same model without a drafter: start the command below without its drafter options, on another port, and enter its address here.</source>
        <translation>验证需要第二台运行同一模型但不带草稿模型的服务器：用下面的命令去掉草稿模型选项、换一个端口启动，然后在此输入其地址。</translation>
    </message>
    <message>
        <source>No {engine} command for this model: {reason}</source>
        <translation>此模型没有 {engine} 命令：{reason}</translation>
    </message>
    <message>
        <source>Copied to the clipboard.</source>
        <translation>已复制到剪贴板。</translation>
    </message>
    <message>
        <source>Plain HTTP to {host} would send the key and your chats unencrypted: use https://, or tick Allow plain HTTP if this network is yours.</source>
        <translation>使用明文 HTTP 连接 {host} 会以未加密方式发送密钥和聊天内容：请使用 https://，如果这是你自己的网络，也可以勾选“允许此端点使用明文 HTTP”。</translation>
    </message>
    <message>
        <source>Not a server address Tandem connects to: {detail}</source>
        <translation>Tandem 不会连接此服务器地址：{detail}</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>The OpenAI API address of your own server (vLLM, SGLang, llama-server or any OpenAI-compatible one). HTTPS is required for other machines.</source>
        <translation>你自己的服务器的 OpenAI API 地址（vLLM、SGLang、llama-server 或任何 OpenAI 兼容服务器）。其他机器必须使用 HTTPS。</translation>
    </message>
    <message>
        <source>Allow plain HTTP for this endpoint</source>
        <translation>允许此端点使用明文 HTTP</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Leave empty if the server needs none</source>
        <translation>服务器不需要时留空</translation>
    </message>
    <message>
        <source>Kept in the system keyring for this endpoint only, never in Tandem&apos;s settings.</source>
        <translation>仅为此端点保存在系统密钥环中，绝不写入 Tandem 的设置。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>The server&apos;s only model</source>
        <translation>服务器的唯一模型</translation>
    </message>
    <message>
        <source>List models</source>
        <translation>列出模型</translation>
    </message>
    <message>
        <source>Ask the server which models it serves</source>
        <translation>询问服务器提供哪些模型</translation>
    </message>
    <message>
        <source>Start a server for {model}</source>
        <translation>为 {model} 启动服务器</translation>
    </message>
    <message>
        <source>The command that starts the server with this model&apos;s drafter, translated from Tandem&apos;s model entry (the same as `tandem serve-command`).</source>
        <translation>用此模型的草稿模型启动服务器的命令，由 Tandem 的模型条目转换而来（与 `tandem serve-command` 相同）。</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Check the drafter</source>
        <translation>检查草稿模型</translation>
    </message>
    <message>
        <source>Baseline endpoint (no drafter)</source>
        <translation>基准端点（无草稿模型）</translation>
    </message>
    <message>
        <source>A second server of the same model without a drafter. Verify compares the greedy answers of both: speculative decoding must not change them. Its key is the one stored for it in the keyring, else the endpoint&apos;s key when both run on the same machine.</source>
        <translation>第二台运行同一模型但不带草稿模型的服务器。验证会比较两者的贪婪解码回答：推测解码不应改变它们。它的密钥是密钥环中为它保存的密钥；若没有且两者在同一台机器上，则使用端点的密钥。</translation>
    </message>
    <message>
        <source>Verify output…</source>
        <translation>验证输出…</translation>
    </message>
    <message>
        <source>Compare greedy answers to a few built-in prompts (prose, code, Chinese, a list, arithmetic) from this endpoint and from the baseline, token by token where the servers give ids</source>
        <translation>比较此端点与基准对几个内置提示词（散文、代码、中文、列表、算术）的贪婪解码回答；服务器提供 Token ID 时逐 Token 比较</translation>
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
    <name>ServerController</name>
    <message>
        <source>Starting the local server</source>
        <extracomment>the start / stop operations, one after the other servers started on an operation thread and not stopped yet; shutdown() stops them all, also one whose start finishes after the window closed (its coroutine is cancelled then) a start or stop is under way the served model&apos;s context in tokens (0 when unknown), read when the server starts the engine pool of the served model (llama.cpp): the window&apos;s (the engine host&apos;s), which closes it with the model the window&apos;s loaded models and the models on disk, served by id (None: the loaded model answers every request)</extracomment>
        <translation>正在启动本地服务器</translation>
    </message>
    <message>
        <source>Stopping the local server</source>
        <translation>正在停止本地服务器</translation>
    </message>
</context>
<context>
    <name>ServerLog</name>
    <message>
        <source>refused: prompt {prompt} tok &gt; context {context} tok</source>
        <translation>已拒绝：提示 {prompt} 词元 &gt; 上下文 {context} 词元</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>stream</source>
        <translation>流式</translation>
    </message>
    <message>
        <source>single</source>
        <translation>单次</translation>
    </message>
    <message>
        <source>{status} {kind}: {prompt}+{completion} tok, {tps} tok/s, drafted {drafted} accepted {accepted} ({rate}), {rounds} rounds, {mean} tok/round</source>
        <translation>{status} {kind}：{prompt}+{completion} 词元，{tps} 词元/秒，草稿 {drafted}，接受 {accepted}（{rate}），{rounds} 轮，{mean} 词元/轮</translation>
    </message>
    <message>
        <source>, {n} tool calls</source>
        <translation>，{n} 次工具调用</translation>
    </message>
</context>
<context>
    <name>ServerPanel</name>
    <message>
        <source>Local server</source>
        <extracomment>the panel opens about this many average characters wide (its texts wrap at that width) the request log shows at least this many lines the request log opens this many lines tall (more requests scroll inside it) the served context, and what to do when an agent&apos;s request did not fit in it (prompt tokens, context) of the last request refused because it did not fit the configurations running for per-request speculation, and what each served stops serving (the status bar&apos;s switch opens this panel while the server runs)</extracomment>
        <translation>本地服务器</translation>
    </message>
    <message>
        <source>OpenAI- and Anthropic-compatible API of the loaded model</source>
        <translation>已加载模型的 OpenAI 与 Anthropic 兼容 API</translation>
    </message>
    <message>
        <source>API key (send as &apos;Authorization: Bearer &lt;key&gt;&apos; or &apos;x-api-key: &lt;key&gt;&apos;):</source>
        <translation>API 密钥（以 &apos;Authorization: Bearer &lt;key&gt;&apos; 或 &apos;x-api-key: &lt;key&gt;&apos; 发送）：</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Allow other machines to connect</source>
        <translation>允许其他计算机连接</translation>
    </message>
    <message>
        <source>Served requests</source>
        <translation>已处理的请求</translation>
    </message>
    <message>
        <source>Use with an agent</source>
        <translation>配合编程智能体使用</translation>
    </message>
    <message>
        <source>Paste these settings into the terminal that starts the agent: Claude Code uses the Anthropic lines, OpenAI clients the OpenAI lines. Copy fills in the key.</source>
        <translation>将这些设置粘贴到启动智能体的终端中：Claude Code 使用 Anthropic 行，OpenAI 客户端使用 OpenAI 行。复制时会填入密钥。</translation>
    </message>
    <message>
        <source>Copy settings</source>
        <translation>复制设置</translation>
    </message>
    <message>
        <source>Stop server</source>
        <translation>停止服务器</translation>
    </message>
    <message>
        <source>Stop serving the loaded model; the model stays loaded for the chat</source>
        <translation>停止对外提供已加载的模型；模型仍保持加载，可继续聊天</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Close this panel; the server goes on serving</source>
        <translation>关闭此面板；服务器继续提供服务</translation>
    </message>
    <message>
        <source>Not running</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>Warning: the server listens on all network addresses; anyone who has the key can use it.</source>
        <translation>警告：服务器监听所有网络地址；任何拥有密钥的人都可以使用它。</translation>
    </message>
    <message>
        <source>Speculation per request: %1 running; %2 of %3 slots busy.</source>
        <translation>按请求选择推测解码：正在运行 %1；%3 个槽位中 %2 个忙碌。</translation>
    </message>
    <message>
        <source>%1: %2 requests, %3 tok/s</source>
        <translation>%1：%2 个请求，%3 tok/s</translation>
    </message>
    <message>
        <source>(%1x of off)</source>
        <translation>（关闭时的 %1 倍）</translation>
    </message>
    <message>
        <source>A request may ask for another speculation (tandem.speculation: off, a method or auto); it then runs in a second copy of llama.cpp on the same model file, started on first use and stopped when idle. The model&apos;s weights are shared; each copy adds its own cache.</source>
        <translation>请求可以指定另一种推测解码（tandem.speculation：off、某种方法或 auto）；它会在同一模型文件上的第二个 llama.cpp 副本中运行，首次使用时启动，空闲时停止。模型权重是共享的；每个副本只增加自己的缓存。</translation>
    </message>
    <message>
        <source>A request did not fit in the context: its prompt has %1 tokens, the context holds %2. Load the model again with a larger context length (Launch… → Context length); agents need 8,192 tokens or more.</source>
        <translation>有一个请求放不进上下文：它的提示有 %1 个 token，而上下文只能容纳 %2 个。请用更大的上下文长度重新加载模型（启动… → 上下文长度）；智能体需要 8,192 个 token 或更多。</translation>
    </message>
    <message>
        <source>Context: %1 tokens. Claude Code and Codex send 5,000 tokens or more with each request; a request that does not fit is refused and shown here.</source>
        <translation>上下文：%1 个 token。Claude Code 和 Codex 每个请求发送 5,000 个 token 或更多；放不进上下文的请求会被拒绝并显示在这里。</translation>
    </message>
    <message>
        <source>OpenAI clients (chat completions, Responses)</source>
        <translation>OpenAI 客户端（Chat Completions、Responses）</translation>
    </message>
</context>
<context>
    <name>ServerSwitch</name>
    <message>
        <source>Server: %1</source>
        <extracomment>the switch asked for a start: show the panel once it listens</extracomment>
        <translation>服务器：%1</translation>
    </message>
    <message>
        <source>Local server</source>
        <translation>本地服务器</translation>
    </message>
    <message>
        <source>Show the address, the key and the requests of the running server</source>
        <translation>显示正在运行的服务器的地址、密钥和请求</translation>
    </message>
    <message>
        <source>Serve the loaded model to other programs over OpenAI- and Anthropic-compatible APIs</source>
        <translation>通过 OpenAI 与 Anthropic 兼容 API 向其他程序提供已加载的模型</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>The server could not start: %1</source>
        <translation>服务器无法启动：%1</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Choose the model cache folder</source>
        <extracomment>the dialog opens this wide where the screen allows (it may be made narrower, down to 680 px)</extracomment>
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
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>工具</translation>
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
        <source>Default (leave empty), or the address of your own ModelScope server</source>
        <translation>默认（留空），或您自己的 ModelScope 服务器地址</translation>
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
        <source>Tandem&apos;s model entries (links to the downloaded files) go here. The files themselves stay in the Hugging Face or ModelScope cache, shared with other tools, so models already there are found again after a change.</source>
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
        <source>Speculation at start</source>
        <translation>启动时的推测解码</translation>
    </message>
    <message>
        <source>Auto (measured on this machine)</source>
        <translation>Auto（在本机上测量）</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>What the model loaded at start uses. Auto measures each model once on this machine (a few seconds) and keeps speculation only where it pays; Off decodes plainly.</source>
        <translation>启动时加载的模型所用的设置。“Auto”会在本机上对每个模型测量一次（几秒钟），只在确实更快时才保留推测解码；“关闭”则使用普通解码。</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Learned text</source>
        <translation>已学习的文本</translation>
    </message>
    <message>
        <source>Forget learned text</source>
        <translation>忘记已学习的文本</translation>
    </message>
    <message>
        <source>Suffix decoding (MLX) drafts from your earlier questions and answers, kept on this computer only ({tokens} tokens now). Forgetting deletes them; deleting a conversation deletes what it taught.</source>
        <translation>后缀解码（MLX）根据你之前的问题和回答起草，这些内容仅保存在这台电脑上（当前 {tokens} 个词元）。忘记会删除它们；删除对话会删除该对话教给它的内容。</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>外观</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>与系统一致</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Light or dark colours; by default they follow the system&apos;s setting</source>
        <translation>浅色或深色；默认跟随系统设置</translation>
    </message>
    <message>
        <source>Local server key</source>
        <translation>本地服务器密钥</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Reading the key…</source>
        <translation>正在读取密钥…</translation>
    </message>
    <message>
        <source>Clients send it as the API key. Set by TANDEM_API_KEY for this session.</source>
        <translation>客户端将其作为 API 密钥发送。本次会话由 TANDEM_API_KEY 设置。</translation>
    </message>
    <message>
        <source>Clients send it as the API key. Kept in the system keyring.</source>
        <translation>客户端将其作为 API 密钥发送。保存在系统钥匙串中。</translation>
    </message>
    <message>
        <source>Clients send it as the API key. No system keyring: a new key is made at each start.</source>
        <translation>客户端将其作为 API 密钥发送。没有系统钥匙串：每次启动都会生成新密钥。</translation>
    </message>
    <message>
        <source>Clients send it as the API key.</source>
        <translation>客户端将其作为 API 密钥发送。</translation>
    </message>
</context>
<context>
    <name>SourceDialog</name>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>The model was given the whole document; its beginning is shown here.</source>
        <translation>模型读到的是整个文档；这里显示它的开头。</translation>
    </message>
    <message>
        <source>The model was given this passage with the question.</source>
        <translation>模型随问题一起读到了这段文字。</translation>
    </message>
    <message>
        <source>Open the document</source>
        <translation>打开文档</translation>
    </message>
    <message>
        <source>Open the stored copy of {file} with the system&apos;s viewer</source>
        <translation>用系统的查看器打开 {file} 保存的副本</translation>
    </message>
</context>
<context>
    <name>SourcesPanel</name>
    <message>
        <source>Sources ({n})</source>
        <translation>来源（{n}）</translation>
    </message>
    <message>
        <source>The documents and passages this answer was given</source>
        <translation>此回答所依据的文档和段落</translation>
    </message>
</context>
<context>
    <name>SpeculationChoice</name>
    <message>
        <source>last answer: {configuration}</source>
        <extracomment>the configuration that wrote the last answer (&quot;&quot; before one) the offered configurations are switched inside the loaded engine (MLX), not a pool&apos;s Auto routes each answer by its kind (a pool with Auto&apos;s router)</extracomment>
        <translation>上一个回答：{configuration}</translation>
    </message>
    <message>
        <source>The configuration that wrote this conversation&apos;s last answer (same text, its own speed)</source>
        <translation>写出此对话上一个回答的配置（文本相同，速度各异）</translation>
    </message>
    <message>
        <source>Speculation:</source>
        <translation>推测：</translation>
    </message>
    <message>
        <source>Speculative decoding for this conversation&apos;s answers. A change applies from the next answer; the text is the same either way, only the speed changes.</source>
        <translation>此对话回答所用的推测解码。更改从下一个回答起生效；文本不变，只有速度不同。</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>no speculation</source>
        <translation>无推测</translation>
    </message>
    <message>
        <source>Chosen per answer by its kind (prose, code, repeat, agent) among the configurations below, by what was measured on this machine</source>
        <translation>按每个回答的类型（散文、代码、重复、代理）从下列配置中选择，依据是在本机上的测量结果</translation>
    </message>
    <message>
        <source>What the model was loaded with: {running}</source>
        <translation>模型加载时的设置：{running}</translation>
    </message>
    <message>
        <source>What the loaded model runs; honoured without a reload</source>
        <translation>已加载模型正在运行的方法；无需重新加载即可使用</translation>
    </message>
    <message>
        <source>Switched per answer inside the loaded engine, on the same weights: no reload</source>
        <translation>在已加载的引擎内按回答切换，使用同一份权重：无需重新加载</translation>
    </message>
    <message>
        <source>Started beside the loaded model on its first answer, sharing its memory: no reload</source>
        <translation>在第一次回答时于已加载模型旁启动，共享其内存：无需重新加载</translation>
    </message>
    <message>
        <source>Needs a reload with {method}: the loaded engine switches per answer only between {offered}</source>
        <translation>需要以 {method} 重新加载：已加载的引擎只能按回答在 {offered} 之间切换</translation>
    </message>
    <message>
        <source>Needs a reload without speculation: the loaded model runs {running}, which cannot be turned off per answer</source>
        <translation>需要不带推测重新加载：已加载的模型运行的是 {running}，无法按回答关闭</translation>
    </message>
    <message>
        <source>Needs a reload with {method}: the loaded model runs {running}, and speculation cannot change per answer</source>
        <translation>需要用 {method} 重新加载：已加载的模型运行的是 {running}，推测无法按回答更改</translation>
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
        <source>Mean tokens per drafting round</source>
        <translation>每个起草轮次的平均词元数</translation>
    </message>
    <message>
        <source>Speculation</source>
        <translation>推测策略</translation>
    </message>
    <message>
        <source>Every configuration on this answer</source>
        <translation>各配置在此回答上的表现</translation>
    </message>
    <message>
        <source>Depth (drafted)</source>
        <translation>深度（草稿）</translation>
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
        <source>{ms} ms, including encoding the image</source>
        <translation>{ms} 毫秒，包含图片编码时间</translation>
    </message>
    <message>
        <source>{ms} ms, including encoding {n} images</source>
        <translation>{ms} 毫秒，包含 {n} 张图片的编码时间</translation>
    </message>
    <message>
        <source>Acceptance figures</source>
        <translation>接受率数据</translation>
    </message>
    <message>
        <source>The plain speed is the median of this model&apos;s recent answers without speculation on this machine. Approximate, since the prompts differ; `tandem bench` measures both side by side.</source>
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
        <source>Accepted</source>
        <translation>已接受</translation>
    </message>
    <message>
        <source>Emitted</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>set by the server</source>
        <translation>由服务器设置</translation>
    </message>
    <message>
        <source>replayed</source>
        <translation>重放</translation>
    </message>
    <message>
        <source>estimated</source>
        <translation>估计</translation>
    </message>
    <message>
        <source>{name}: {ratio} ({tps} tok/s, {basis})</source>
        <translation>{name}：{ratio}（{tps} tok/s，{basis}）</translation>
    </message>
    <message>
        <source>← answered</source>
        <translation>← 实际回答</translation>
    </message>
    <message>
        <source>none (nothing drafted)</source>
        <translation>无（没有草稿）</translation>
    </message>
    <message>
        <source>Plain decode speed, this prompt</source>
        <translation>普通解码速度（此提示）</translation>
    </message>
    <message>
        <source>Speedup vs plain, measured</source>
        <translation>相对普通的加速比（已测量）</translation>
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
        <extracomment>where a remote server&apos;s figures come from (&quot;llama.cpp timings&quot;, ...); hidden for local answers why a cut answer stopped (the context is full / Max new tokens); hidden otherwise</extracomment>
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
        <source>Speculation was on ({method}) but proposed no draft for this answer: a model-free method drafts only where the text repeats what it has seen, a drafter only where it is sure enough</source>
        <translation>推测已开启（{method}），但这次回答没有提出任何草稿：无模型方法只在文本重复已见内容时起草，草稿模型只在足够确定时起草</translation>
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
        <source>Mean tokens emitted per drafting round: the accepted drafts plus the model&apos;s own token, fewer when the answer ended inside the round</source>
        <translation>每个起草轮次平均输出的词元数：被接受的草稿词元加上模型自己的一个词元；若回答在该轮内结束则更少</translation>
    </message>
    <message>
        <source>Tandem has not seen this model answer without speculation on this machine yet. Click Measure to run this prompt without speculation, or get one plain answer of at least {n} tokens: later answers then show the speedup automatically.</source>
        <translation>Tandem 尚未在本机上见过此模型不使用推测解码的回答。点击“测量”以不使用推测解码运行此提示，或获得一个至少 {n} 个词元的普通回答：之后的回答会自动显示加速比。</translation>
    </message>
    <message>
        <source>{value}× vs plain, measured</source>
        <translation>{value}× 对比普通（已测量）</translation>
    </message>
    <message>
        <source>Measured: the same prompt without speculation decoded at {plain} tok/s on this machine; this answer at {spec} tok/s.</source>
        <translation>已测量：同一提示不使用推测解码时在本机上的解码速度为 {plain} tok/s；此回答为 {spec} tok/s。</translation>
    </message>
    <message>
        <source>from {source}</source>
        <translation>来自 {source}</translation>
    </message>
    <message>
        <source>This answer against the same {n} tokens decoded without speculation, one plain step of the model per token, set against this answer&apos;s decode time.</source>
        <translation>此回答与不使用投机解码相同的 {n} 个词元相比：每个词元按模型的一次普通步骤计，与此回答的解码时间对比。</translation>
    </message>
    <message>
        <source>The plain step was measured during this answer, in its rounds that drafted nothing: another program&apos;s load moves both sides alike.</source>
        <translation>普通步骤是在此回答中没有草稿的轮次里测得的：其他程序的负载对两边的影响相同。</translation>
    </message>
    <message>
        <source>Each round is priced by what a round of this configuration and depth costs in plain steps on this machine, learned from earlier answers: another program&apos;s load does not move the figure.</source>
        <translation>每一轮按此配置和深度的一轮在这台机器上相当于多少次普通步骤来计价（从之前的回答中学到）：其他程序的负载不会改变这个数字。</translation>
    </message>
    <message>
        <source>The plain step is the model&apos;s, measured in answers a moment before (this configuration&apos;s rounds are not priced yet).</source>
        <translation>普通步骤取自稍早的回答中测得的模型步骤（此配置的轮次尚未计价）。</translation>
    </message>
    <message>
        <source>Includes encoding the image</source>
        <translation>包含图片编码时间</translation>
    </message>
    <message>
        <source>Includes encoding the {n} images</source>
        <translation>包含 {n} 张图片的编码时间</translation>
    </message>
    <message>
        <source>Passes of the model for this answer: {drafting} verified a draft, {plain} gave one token without one</source>
        <translation>本回答中模型的推理轮次：{drafting} 轮验证了草稿，{plain} 轮未使用草稿、各生成一个词元</translation>
    </message>
    <message>
        <source>nothing drafted</source>
        <translation>未产生草稿</translation>
    </message>
    <message>
        <source>{share} of the answer drafted, {value} accepted</source>
        <translation>回答的 {share} 来自草稿，接受 {value}</translation>
    </message>
    <message>
        <source>{share} of the answer&apos;s tokens came from accepted drafts: for a model-free method, text it copied from the conversation and its documents</source>
        <translation>回答中 {share} 的词元来自被接受的草稿：对无模型方法而言，就是它从对话及其文档中复制的文字</translation>
    </message>
    <message>
        <source>Per round: bar height = the depth drafted in that round, green = accepted</source>
        <translation>每轮：柱高 = 该轮草稿的深度，绿色 = 已接受</translation>
    </message>
    <message>
        <source>Measuring…</source>
        <translation>正在测量…</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>测量</translation>
    </message>
    <message>
        <source>Run this prompt again without speculation (same settings, on a plain copy of the model loaded for the measurement) and show the direct speedup of this answer</source>
        <translation>不使用推测解码再次运行此提示（相同设置，在为测量而加载的模型普通副本上），并显示此回答的直接加速比</translation>
    </message>
    <message>
        <source>This answer drafted nothing: every token was decoded as without speculation, so it claims no speedup.</source>
        <translation>此回答没有任何草稿：每个词元都和不使用投机解码时一样解码，因此不声称有加速。</translation>
    </message>
    <message>
        <source>speedup: not measured</source>
        <translation>加速比：未测量</translation>
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
<context>
    <name>Thumbnail</name>
    <message>
        <source>Click to enlarge</source>
        <translation>点击放大</translation>
    </message>
    <message>
        <source>Remove this image</source>
        <translation>移除此图片</translation>
    </message>
</context>
<context>
    <name>ToolCallBlock</name>
    <message>
        <source>Tool call: {name}</source>
        <extracomment>what a block can say of its call: waiting for the user, running, or how it ended the one line of a call that did not go well (&quot;&quot; otherwise; the answer shows it)</extracomment>
        <translation>工具调用：{name}</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>批准</translation>
    </message>
    <message>
        <source>Run this call once</source>
        <translation>运行这一次调用</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Do not run it; the answer ends here</source>
        <translation>不运行；回答到此结束</translation>
    </message>
    <message>
        <source>Always allow</source>
        <translation>始终允许</translation>
    </message>
    <message>
        <source>Run it, and run this tool without asking from now on</source>
        <translation>运行它，今后运行此工具时不再询问</translation>
    </message>
    <message>
        <source>Waiting for your approval.</source>
        <translation>等待你的批准。</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>Ran; its result is below.</source>
        <translation>已运行；结果见下方。</translation>
    </message>
</context>
<context>
    <name>ToolsPage</name>
    <message>
        <source>The tool servers could not be started</source>
        <translation>无法启动工具服务器</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>正在启动</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>off</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <source>failed: {reason}</source>
        <translation>失败：{reason}</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Ask every time</source>
        <translation>每次询问</translation>
    </message>
    <message>
        <source>Always allow</source>
        <translation>始终允许</translation>
    </message>
    <message>
        <source>Never offered to the model</source>
        <translation>从不提供给模型</translation>
    </message>
    <message>
        <source>Each call waits for your approval</source>
        <translation>每次调用都等待你的批准</translation>
    </message>
    <message>
        <source>Calls run without asking</source>
        <translation>调用时不询问直接运行</translation>
    </message>
    <message>
        <source>Import mcpServers JSON</source>
        <translation>导入 mcpServers JSON</translation>
    </message>
    <message>
        <source>JSON files (*.json);;All files (*)</source>
        <translation>JSON 文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Export mcpServers JSON</source>
        <translation>导出 mcpServers JSON</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON 文件 (*.json)</translation>
    </message>
    <message>
        <source>Exported to {path}.</source>
        <translation>已导出到 {path}。</translation>
    </message>
    <message>
        <source>Left empty: {names}.</source>
        <translation>留空：{names}。</translation>
    </message>
    <message>
        <source>MCP servers whose tools the model may call in the chat, each call with your approval unless its rule is Always allow; a tool that is Off is never offered to the model. Changes are saved at once; secrets go to the keyring.</source>
        <translation>模型可以在聊天中调用其工具的 MCP 服务器；除非规则为“始终允许”，每次调用都需要你的批准；设为“关闭”的工具从不提供给模型。更改会立即保存；机密信息存入密钥环。</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>使用</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Server / tool</source>
        <translation>服务器 / 工具</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Import mcpServers JSON…</source>
        <translation>导入 mcpServers JSON…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Add server…</source>
        <translation>添加服务器…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
</context>
<context>
    <name>VerifyDialog</name>
    <message>
        <source>The check could not run</source>
        <extracomment>the prompts done so far in a running check, shown as they come</extracomment>
        <translation>无法运行检查</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>Baseline: {message}</source>
        <translation>基准：{message}</translation>
    </message>
    <message>
        <source>Endpoint: {message}</source>
        <translation>端点：{message}</translation>
    </message>
    <message>
        <source>Prose</source>
        <translation>散文</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Chinese</source>
        <translation>中文</translation>
    </message>
    <message>
        <source>List</source>
        <translation>列表</translation>
    </message>
    <message>
        <source>Arithmetic</source>
        <translation>算术</translation>
    </message>
    <message>
        <source>Prompt {i} of {n} ({kind}): the baseline answers, then the endpoint…</source>
        <translation>第 {i}/{n} 个提示词（{kind}）：先由基准回答，再由端点回答…</translation>
    </message>
    <message>
        <source>Connecting to both servers…</source>
        <translation>正在连接两台服务器…</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>EXACT: the endpoint&apos;s answers match the baseline&apos;s on all {n} prompts.</source>
        <translation>EXACT：在全部 {n} 个提示词上，端点的回答与基准完全一致。</translation>
    </message>
    <message>
        <source>TOP_K_MATCH: {k} of {n} prompts differ at a near-tie (each token among the other side&apos;s top candidates), the others match exactly.</source>
        <translation>TOP_K_MATCH：{n} 个提示词中有 {k} 个在近乎并列处不同（双方的 Token 都在对方的前几名候选中），其余完全一致。</translation>
    </message>
    <message>
        <source>FAIL: {k} of {n} prompts diverge from the baseline. Check that both servers run the same model file and settings; if they do, the drafter changes the output.</source>
        <translation>FAIL：{n} 个提示词中有 {k} 个与基准不一致。请确认两台服务器运行相同的模型文件和设置；如果相同，则是草稿模型改变了输出。</translation>
    </message>
    <message>
        <source>The baseline reported drafted tokens: it should run without a drafter, or this check compares two speculative servers.</source>
        <translation>基准报告了草稿 Token：它应在不带草稿模型的情况下运行，否则此检查比较的是两台推测解码服务器。</translation>
    </message>
    <message>
        <source>The endpoint does not report acceptance, so Tandem cannot tell whether it drafted.</source>
        <translation>端点不报告接受率，因此 Tandem 无法判断它是否进行了草稿生成。</translation>
    </message>
    <message>
        <source>The endpoint reported no drafted tokens: it seems to run without a drafter, so this check compared two plain servers.</source>
        <translation>端点报告没有草稿 Token：它似乎未使用草稿模型运行，因此此检查比较的是两台普通服务器。</translation>
    </message>
    <message>
        <source>not reported</source>
        <translation>未报告</translation>
    </message>
    <message>
        <source>The endpoint drafted {drafted} tokens and {accepted} were accepted ({source}).</source>
        <translation>端点生成了 {drafted} 个草稿 Token，其中 {accepted} 个被接受（{source}）。</translation>
    </message>
    <message>
        <source>(the baseline&apos;s answer ended)</source>
        <translation>（基准的回答已结束）</translation>
    </message>
    <message>
        <source>EXACT: the same text ({n} tokens)</source>
        <translation>EXACT：文本相同（{n} 个 Token）</translation>
    </message>
    <message>
        <source>EXACT: the same {n} tokens</source>
        <translation>EXACT：{n} 个 Token 相同</translation>
    </message>
    <message>
        <source>TOP_K_MATCH at token {pos}: baseline {off}, endpoint {on}; log-probability gap {gap}</source>
        <translation>TOP_K_MATCH，位于第 {pos} 个 Token：基准 {off}，端点 {on}；对数概率差 {gap}</translation>
    </message>
    <message>
        <source>FAIL at token {pos}: baseline {off}, endpoint {on} (text compared: the server gave no token ids)</source>
        <translation>FAIL，位于第 {pos} 个 Token：基准 {off}，端点 {on}（比较的是文本：服务器未提供 Token ID）</translation>
    </message>
    <message>
        <source>(the endpoint&apos;s answer ended)</source>
        <translation>（端点的回答已结束）</translation>
    </message>
    <message>
        <source>not known</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>FAIL at token {pos}: baseline {off} (log-probability {off_lp}), endpoint {on} (log-probability {on_lp} at the baseline)</source>
        <translation>FAIL，位于第 {pos} 个 Token：基准 {off}（对数概率 {off_lp}），端点 {on}（在基准处的对数概率 {on_lp}）</translation>
    </message>
    <message>
        <source>Model: {model}</source>
        <translation>模型：{model}</translation>
    </message>
    <message>
        <source>Text compared: the servers gave no token ids.</source>
        <translation>比较的是文本：服务器未提供 Token ID。</translation>
    </message>
    <message>
        <source>Verify the drafter&apos;s output</source>
        <translation>验证草稿模型的输出</translation>
    </message>
    <message>
        <source>Greedy answers of {endpoint} (with its drafter) compared with {baseline} (the same model without a drafter): {n} prompts of different kinds, up to {max} tokens each. Speculative decoding must not change greedy output.</source>
        <translation>比较 {endpoint}（带草稿模型）与 {baseline}（同一模型，不带草稿模型）的贪婪解码回答：{n} 个不同类型的提示词，每个最多 {max} 个 Token。推测解码不应改变贪婪解码的输出。</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Run again</source>
        <translation>再次运行</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>_SourceRow</name>
    <message>
        <source>Show this passage</source>
        <translation>显示这段文字</translation>
    </message>
</context>
</TS>
