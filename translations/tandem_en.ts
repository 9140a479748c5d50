<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
    <context>
        <name>BrowserPage</name>
        <message>
            <source>This entry is invalid and was skipped: {reason}</source>
            <translation>This entry is invalid and was skipped: {reason}</translation>
        </message>
        <message>
            <source>Models</source>
            <translation>Models</translation>
        </message>
        <message>
            <source>Search models</source>
            <translation>Search models</translation>
        </message>
        <message>
            <source>All formats</source>
            <translation>All formats</translation>
        </message>
        <message>
            <source>All sizes</source>
            <translation>All sizes</translation>
        </message>
        <message>
            <source>Under 1B</source>
            <translation>Under 1B</translation>
        </message>
        <message>
            <source>1B to 5B</source>
            <translation>1B to 5B</translation>
        </message>
        <message>
            <source>5B to 15B</source>
            <translation>5B to 15B</translation>
        </message>
        <message>
            <source>Over 15B</source>
            <translation>Over 15B</translation>
        </message>
        <message>
            <source>Has drafter</source>
            <translation>Has drafter</translation>
        </message>
        <message>
            <source>Only models that declare a drafter for speculative decoding</source>
            <translation>Only models that declare a drafter for speculative decoding</translation>
        </message>
        <message>
            <source>Downloaded</source>
            <translation>Downloaded</translation>
        </message>
        <message>
            <source>Download</source>
            <translation>Download</translation>
        </message>
        <message>
            <source>with its drafter</source>
            <translation>with its drafter</translation>
        </message>
        <message>
            <source>Also download the recommended drafter quantization</source>
            <translation>Also download the recommended drafter quantization</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>Delete</translation>
        </message>
        <message>
            <source>Launch…</source>
            <translation>Launch…</translation>
        </message>
        <message>
            <source>● downloaded   ◐ partly downloaded   ○ not downloaded</source>
            <translation>● downloaded   ◐ partly downloaded   ○ not downloaded</translation>
        </message>
    </context>
    <context>
        <name>ChatController</name>
        <message>
            <source>New chat</source>
            <translation>New chat</translation>
        </message>
        <message>
            <source>No model loaded</source>
            <translation>No model loaded</translation>
        </message>
        <message>
            <source>No model is loaded.</source>
            <translation>No model is loaded.</translation>
        </message>
        <message>
            <source>Load a model from the Models page, then send again.</source>
            <translation>Load a model from the Models page, then send again.</translation>
        </message>
        <message>
            <source>The answer could not be generated</source>
            <translation>The answer could not be generated</translation>
        </message>
    </context>
    <context>
        <name>ChatView</name>
        <message>
            <source>Highlight drafted tokens</source>
            <translation>Highlight drafted tokens</translation>
        </message>
        <message>
            <source>Shade the text that came from accepted drafts: the model verified it instead of producing it one token at a time.</source>
            <translation>Shade the text that came from accepted drafts: the model verified it instead of producing it one token at a time.</translation>
        </message>
        <message>
            <source>Sampling</source>
            <translation>Sampling</translation>
        </message>
        <message>
            <source>System prompt and sampling settings of this conversation</source>
            <translation>System prompt and sampling settings of this conversation</translation>
        </message>
        <message>
            <source>Ask anything. Answers stream here with their speed and acceptance statistics.</source>
            <translation>Ask anything. Answers stream here with their speed and acceptance statistics.</translation>
        </message>
    </context>
    <context>
        <name>Composer</name>
        <message>
            <source>Message the model (Enter to send, Shift+Enter for a new line)</source>
            <translation>Message the model (Enter to send, Shift+Enter for a new line)</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>Stop</translation>
        </message>
        <message>
            <source>Send</source>
            <translation>Send</translation>
        </message>
    </context>
    <context>
        <name>DeleteDialog</name>
        <message>
            <source>Also deletes the model and drafter files from the {hub} cache, unless another Tandem model still uses them. Other tools that share this cache (the hf command, Python scripts, other apps) lose these files and must download them again.</source>
            <translation>Also deletes the model and drafter files from the {hub} cache, unless another Tandem model still uses them. Other tools that share this cache (the hf command, Python scripts, other apps) lose these files and must download them again.</translation>
        </message>
        <message>
            <source>Delete files</source>
            <translation>Delete files</translation>
        </message>
        <message>
            <source>Remove from Tandem</source>
            <translation>Remove from Tandem</translation>
        </message>
        <message>
            <source>Delete model</source>
            <translation>Delete model</translation>
        </message>
        <message>
            <source>Remove {model} from Tandem?</source>
            <translation>Remove {model} from Tandem?</translation>
        </message>
        <message>
            <source>Tandem's entry for this model and its drafter is removed. The downloaded files stay in the {hub} cache, where other tools can still use them.</source>
            <translation>Tandem's entry for this model and its drafter is removed. The downloaded files stay in the {hub} cache, where other tools can still use them.</translation>
        </message>
        <message>
            <source>Tandem found this model in the {hub} cache (another tool downloaded it) and has no entry of its own to remove. Choose “Also free disk space” to delete the files.</source>
            <translation>Tandem found this model in the {hub} cache (another tool downloaded it) and has no entry of its own to remove. Choose “Also free disk space” to delete the files.</translation>
        </message>
        <message>
            <source>The files take {size}.</source>
            <translation>The files take {size}.</translation>
        </message>
        <message>
            <source>Also free disk space</source>
            <translation>Also free disk space</translation>
        </message>
    </context>
    <context>
        <name>DepthField</name>
        <message>
            <source>Enter a whole number greater than zero, or leave it empty.</source>
            <extracomment>(role, quantization) pairs not downloaded yet; the caller queues them before loading.</extracomment>
            <translation>Enter a whole number greater than zero, or leave it empty.</translation>
        </message>
    </context>
    <context>
        <name>DownloadsModel</name>
        <message>
            <source>Queued</source>
            <translation>Queued</translation>
        </message>
        <message>
            <source>Downloading</source>
            <translation>Downloading</translation>
        </message>
        <message>
            <source>Finished</source>
            <translation>Finished</translation>
        </message>
        <message>
            <source>Failed</source>
            <translation>Failed</translation>
        </message>
        <message>
            <source>Cancelled</source>
            <translation>Cancelled</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>Model</translation>
        </message>
        <message>
            <source>State</source>
            <translation>State</translation>
        </message>
        <message>
            <source>Progress</source>
            <translation>Progress</translation>
        </message>
        <message>
            <source>Rate</source>
            <translation>Rate</translation>
        </message>
        <message>
            <source>Time left</source>
            <translation>Time left</translation>
        </message>
    </context>
    <context>
        <name>DownloadsPage</name>
        <message>
            <source>Downloads</source>
            <translation>Downloads</translation>
        </message>
        <message>
            <source>No downloads yet. Pick a model on the Models page and press Download.</source>
            <translation>No downloads yet. Pick a model on the Models page and press Download.</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Cancel</translation>
        </message>
        <message>
            <source>Retry</source>
            <translation>Retry</translation>
        </message>
        <message>
            <source>Open folder</source>
            <translation>Open folder</translation>
        </message>
    </context>
    <context>
        <name>EngineLoader</name>
        <message>
            <source>Locating model files</source>
            <translation>Locating model files</translation>
        </message>
    </context>
    <context>
        <name>ErrorBanner</name>
        <message>
            <source>Details</source>
            <translation>Details</translation>
        </message>
        <message>
            <source>Dismiss</source>
            <translation>Dismiss</translation>
        </message>
    </context>
    <context>
        <name>Errors</name>
        <message>
            <source>Something went wrong</source>
            <translation>Something went wrong</translation>
        </message>
        <message>
            <source>Correct the speculative decoding settings and try again.</source>
            <translation>Correct the speculative decoding settings and try again.</translation>
        </message>
        <message>
            <source>Install the package named above, then restart Tandem.</source>
            <translation>Install the package named above, then restart Tandem.</translation>
        </message>
        <message>
            <source>Check the model entry; the message names the field to fix.</source>
            <translation>Check the model entry; the message names the field to fix.</translation>
        </message>
        <message>
            <source>Check free disk space and permissions, then retry.</source>
            <translation>Check free disk space and permissions, then retry.</translation>
        </message>
        <message>
            <source>Unexpected error</source>
            <translation>Unexpected error</translation>
        </message>
        <message>
            <source>Tandem keeps running. If this repeats, report it with the details below.</source>
            <translation>Tandem keeps running. If this repeats, report it with the details below.</translation>
        </message>
    </context>
    <context>
        <name>LaunchDialog</name>
        <message>
            <source>This engine is not available here: {reason}</source>
            <translation>This engine is not available here: {reason}</translation>
        </message>
        <message>
            <source>{quant} is not downloaded yet; launching queues its download first.</source>
            <translation>{quant} is not downloaded yet; launching queues its download first.</translation>
        </message>
        <message>
            <source>Enable MTP</source>
            <translation>Enable MTP</translation>
        </message>
        <message>
            <source>Use the drafter model</source>
            <translation>Use the drafter model</translation>
        </message>
        <message>
            <source>The drafter ({quant}) is not downloaded yet. Launching queues its download, then loads the model with it.</source>
            <translation>The drafter ({quant}) is not downloaded yet. Launching queues its download, then loads the model with it.</translation>
        </message>
        <message>
            <source>default</source>
            <translation>default</translation>
        </message>
        <message>
            <source>This is a mixture-of-experts model: it computes only part of itself per token, so a drafter may cost more than it saves. Compare the tokens/s in the statistics strip with speculation on and off.</source>
            <translation>This is a mixture-of-experts model: it computes only part of itself per token, so a drafter may cost more than it saves. Compare the tokens/s in the statistics strip with speculation on and off.</translation>
        </message>
        <message>
            <source>Off</source>
            <translation>Off</translation>
        </message>
        <message>
            <source>Turn the drafter off to use a model-free method.</source>
            <translation>Turn the drafter off to use a model-free method.</translation>
        </message>
        <message>
            <source>engine default</source>
            <translation>engine default</translation>
        </message>
        <message>
            <source>{quant} (cached)</source>
            <translation>{quant} (cached)</translation>
        </message>
        <message>
            <source>{quant} (partial)</source>
            <translation>{quant} (partial)</translation>
        </message>
        <message>
            <source>engine default: {value}</source>
            <translation>engine default: {value}</translation>
        </message>
        <message>
            <source>Tokens per round: how many tokens are drafted before the model verifies them. The model adds one token of its own every round, so a round yields at most this many plus one. Leave empty for the engine default.</source>
            <translation>Tokens per round: how many tokens are drafted before the model verifies them. The model adds one token of its own every round, so a round yields at most this many plus one. Leave empty for the engine default.</translation>
        </message>
        <message>
            <source>On MLX the Gemma 4 assistant is trained on blocks of {block} tokens that include the verified token, so it drafts {value} per round by default.</source>
            <translation>On MLX the Gemma 4 assistant is trained on blocks of {block} tokens that include the verified token, so it drafts {value} per round by default.</translation>
        </message>
        <message>
            <source>On MLX this is the drafter's block size minus the verified token; empty uses the depth the drafter was trained for.</source>
            <translation>On MLX this is the drafter's block size minus the verified token; empty uses the depth the drafter was trained for.</translation>
        </message>
        <message>
            <source>On llama.cpp n-gram methods this is the longest draft taken from earlier text in a round.</source>
            <translation>On llama.cpp n-gram methods this is the longest draft taken from earlier text in a round.</translation>
        </message>
        <message>
            <source>On llama.cpp this is the drafter's maximum draft length (draft.n_max); a round may draft fewer when the drafter is unsure.</source>
            <translation>On llama.cpp this is the drafter's maximum draft length (draft.n_max); a round may draft fewer when the drafter is unsure.</translation>
        </message>
        <message>
            <source>Default here: {value} ({source}).</source>
            <translation>Default here: {value} ({source}).</translation>
        </message>
        <message>
            <source>recommended for this Gemma 4 size</source>
            <translation>recommended for this Gemma 4 size</translation>
        </message>
        <message>
            <source>the drafter's trained depth</source>
            <translation>the drafter's trained depth</translation>
        </message>
        <message>
            <source>llama.cpp's own default</source>
            <translation>llama.cpp's own default</translation>
        </message>
        <message>
            <source>Launch {name}</source>
            <translation>Launch {name}</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>Model</translation>
        </message>
        <message>
            <source>Variant</source>
            <translation>Variant</translation>
        </message>
        <message>
            <source>Quantization</source>
            <translation>Quantization</translation>
        </message>
        <message>
            <source>Engine</source>
            <translation>Engine</translation>
        </message>
        <message>
            <source>Only engines that can run this model's format are listed.</source>
            <translation>Only engines that can run this model's format are listed.</translation>
        </message>
        <message>
            <source>Speculative Decoding</source>
            <translation>Speculative Decoding</translation>
        </message>
        <message>
            <source>Speculation can be slower when the drafter is expensive relative to the model, for example with mixture-of-experts models. Tandem measures every answer: the statistics strip shows tokens/s and how many drafted tokens were accepted, so you can see whether it pays.</source>
            <translation>Speculation can be slower when the drafter is expensive relative to the model, for example with mixture-of-experts models. Tandem measures every answer: the statistics strip shows tokens/s and how many drafted tokens were accepted, so you can see whether it pays.</translation>
        </message>
        <message>
            <source>Runs a small drafter beside the model. The drafter proposes several tokens per round and the model verifies them in one pass: the answer is identical, decoding is faster. Turning this on downloads an extra drafter checkpoint.</source>
            <translation>Runs a small drafter beside the model. The drafter proposes several tokens per round and the model verifies them in one pass: the answer is identical, decoding is faster. Turning this on downloads an extra drafter checkpoint.</translation>
        </message>
        <message>
            <source>Drafter Quantization</source>
            <translation>Drafter Quantization</translation>
        </message>
        <message>
            <source>Defaults to the first available</source>
            <translation>Defaults to the first available</translation>
        </message>
        <message>
            <source>The drafter is small, so quantizing it saves little memory but lowers how many of its tokens are accepted. An unquantized drafter is recommended even for a quantized model.</source>
            <translation>The drafter is small, so quantizing it saves little memory but lowers how many of its tokens are accepted. An unquantized drafter is recommended even for a quantized model.</translation>
        </message>
        <message>
            <source>Speculative Tokens</source>
            <translation>Speculative Tokens</translation>
        </message>
        <message>
            <source>Model-free speculation</source>
            <translation>Model-free speculation</translation>
        </message>
        <message>
            <source>Drafts from repeated text in the prompt and earlier answers, with no extra model. It helps most when answers repeat or edit earlier text, such as code.</source>
            <translation>Drafts from repeated text in the prompt and earlier answers, with no extra model. It helps most when answers repeat or edit earlier text, such as code.</translation>
        </message>
        <message>
            <source>Method</source>
            <translation>Method</translation>
        </message>
        <message>
            <source>Runtime and sampling</source>
            <translation>Runtime and sampling</translation>
        </message>
        <message>
            <source>Context length</source>
            <translation>Context length</translation>
        </message>
        <message>
            <source>Threads</source>
            <translation>Threads</translation>
        </message>
        <message>
            <source>Automatic</source>
            <translation>Automatic</translation>
        </message>
        <message>
            <source>Temperature</source>
            <translation>Temperature</translation>
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
            <translation>Max new tokens</translation>
        </message>
        <message>
            <source>Launch</source>
            <translation>Launch</translation>
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
            <translation>Chat</translation>
        </message>
        <message>
            <source>Models</source>
            <translation>Models</translation>
        </message>
        <message>
            <source>Downloads</source>
            <translation>Downloads</translation>
        </message>
        <message>
            <source>Settings</source>
            <translation>Settings</translation>
        </message>
        <message>
            <source>Language</source>
            <translation>Language</translation>
        </message>
        <message>
            <source>New chat</source>
            <translation>New chat</translation>
        </message>
        <message>
            <source>Rename</source>
            <translation>Rename</translation>
        </message>
        <message>
            <source>Delete conversation</source>
            <translation>Delete conversation</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Cancel</translation>
        </message>
        <message>
            <source>Model: {name}</source>
            <translation>Model: {name}</translation>
        </message>
        <message>
            <source>Engine: {name}</source>
            <translation>Engine: {name}</translation>
        </message>
        <message>
            <source>Speculation: {mode}</source>
            <translation>Speculation: {mode}</translation>
        </message>
        <message>
            <source>Speculation: off</source>
            <translation>Speculation: off</translation>
        </message>
        <message>
            <source>No model loaded</source>
            <translation>No model loaded</translation>
        </message>
        <message>
            <source>Memory: {value}</source>
            <translation>Memory: {value}</translation>
        </message>
        <message>
            <source>Downloading; the model loads when the download finishes.</source>
            <translation>Downloading; the model loads when the download finishes.</translation>
        </message>
        <message>
            <source>Loading {name}…</source>
            <translation>Loading {name}…</translation>
        </message>
        <message>
            <source>The default model is not available</source>
            <translation>The default model is not available</translation>
        </message>
        <message>
            <source>Cancelling…</source>
            <translation>Cancelling…</translation>
        </message>
        <message>
            <source>Loading: {step}</source>
            <translation>Loading: {step}</translation>
        </message>
        <message>
            <source>The model could not be loaded</source>
            <translation>The model could not be loaded</translation>
        </message>
        <message>
            <source>Loading cancelled</source>
            <translation>Loading cancelled</translation>
        </message>
        <message>
            <source>The download could not be queued</source>
            <translation>The download could not be queued</translation>
        </message>
        <message>
            <source>Added to downloads</source>
            <translation>Added to downloads</translation>
        </message>
        <message>
            <source>A download failed</source>
            <translation>A download failed</translation>
        </message>
        <message>
            <source>Check the network and the hub settings, then press Retry.</source>
            <translation>Check the network and the hub settings, then press Retry.</translation>
        </message>
        <message>
            <source>The files could not be deleted</source>
            <translation>The files could not be deleted</translation>
        </message>
        <message>
            <source>Removed {model} from Tandem; its files stay in the hub cache.</source>
            <translation>Removed {model} from Tandem; its files stay in the hub cache.</translation>
        </message>
        <message>
            <source>Deleted {model}: {size} of disk space freed.</source>
            <translation>Deleted {model}: {size} of disk space freed.</translation>
        </message>
        <message>
            <source>Removed {model} from Tandem; no disk space was freed (its files are still used by other Tandem models, or were already gone).</source>
            <translation>Removed {model} from Tandem; no disk space was freed (its files are still used by other Tandem models, or were already gone).</translation>
        </message>
        <message>
            <source>Settings could not be saved</source>
            <translation>Settings could not be saved</translation>
        </message>
    </context>
    <context>
        <name>MessageBubble</name>
        <message>
            <source>You</source>
            <translation>You</translation>
        </message>
        <message>
            <source>Assistant</source>
            <translation>Assistant</translation>
        </message>
        <message>
            <source>stopped</source>
            <translation>stopped</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>failed</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>Copy</translation>
        </message>
        <message>
            <source>Copy the text of this message</source>
            <translation>Copy the text of this message</translation>
        </message>
        <message>
            <source>Edit</source>
            <translation>Edit</translation>
        </message>
        <message>
            <source>Edit and resend: the answers after it are replaced</source>
            <translation>Edit and resend: the answers after it are replaced</translation>
        </message>
        <message>
            <source>Regenerate</source>
            <translation>Regenerate</translation>
        </message>
        <message>
            <source>Generate this answer again</source>
            <translation>Generate this answer again</translation>
        </message>
    </context>
    <context>
        <name>RegistryModel</name>
        <message>
            <source>Downloaded</source>
            <translation>Downloaded</translation>
        </message>
        <message>
            <source>Partially downloaded</source>
            <translation>Partially downloaded</translation>
        </message>
        <message>
            <source>Not downloaded</source>
            <translation>Not downloaded</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>Model</translation>
        </message>
        <message>
            <source>Formats</source>
            <translation>Formats</translation>
        </message>
        <message>
            <source>Sizes</source>
            <translation>Sizes</translation>
        </message>
        <message>
            <source>Drafter</source>
            <translation>Drafter</translation>
        </message>
        <message>
            <source>Has a drafter for speculative decoding</source>
            <translation>Has a drafter for speculative decoding</translation>
        </message>
        <message>
            <source>No drafter</source>
            <translation>No drafter</translation>
        </message>
        <message>
            <source>invalid</source>
            <translation>invalid</translation>
        </message>
        <message>
            <source>Variant</source>
            <extracomment>Size buckets offered by the filter (billions of parameters, half-open ranges).</extracomment>
            <translation>Variant</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>Status</translation>
        </message>
        <message>
            <source>A small model that proposes tokens for this one to verify; used by speculative decoding.</source>
            <translation>A small model that proposes tokens for this one to verify; used by speculative decoding.</translation>
        </message>
        <message>
            <source>with drafter</source>
            <translation>with drafter</translation>
        </message>
        <message>
            <source>Drafter quantizations</source>
            <translation>Drafter quantizations</translation>
        </message>
        <message>
            <source>Model quantizations</source>
            <translation>Model quantizations</translation>
        </message>
        <message>
            <source>default</source>
            <translation>default</translation>
        </message>
    </context>
    <context>
        <name>SamplingDialog</name>
        <message>
            <source>Conversation settings</source>
            <translation>Conversation settings</translation>
        </message>
        <message>
            <source>e.g. You are a concise assistant.</source>
            <translation>e.g. You are a concise assistant.</translation>
        </message>
        <message>
            <source>System prompt</source>
            <translation>System prompt</translation>
        </message>
        <message>
            <source>Temperature</source>
            <translation>Temperature</translation>
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
            <translation>Max new tokens</translation>
        </message>
    </context>
    <context>
        <name>SettingsDialog</name>
        <message>
            <source>Choose the model cache folder</source>
            <translation>Choose the model cache folder</translation>
        </message>
        <message>
            <source>Choose a full path for the model cache, such as {example}.</source>
            <translation>Choose a full path for the model cache, such as {example}.</translation>
        </message>
        <message>
            <source>The model cache folder cannot be created: {reason}</source>
            <translation>The model cache folder cannot be created: {reason}</translation>
        </message>
        <message>
            <source>The model cache folder is not writable: {path}</source>
            <translation>The model cache folder is not writable: {path}</translation>
        </message>
        <message>
            <source>Settings</source>
            <translation>Settings</translation>
        </message>
        <message>
            <source>Model hub</source>
            <translation>Model hub</translation>
        </message>
        <message>
            <source>Download from</source>
            <translation>Download from</translation>
        </message>
        <message>
            <source>Hugging Face endpoint</source>
            <translation>Hugging Face endpoint</translation>
        </message>
        <message>
            <source>ModelScope endpoint</source>
            <translation>ModelScope endpoint</translation>
        </message>
        <message>
            <source>Default (leave empty), or a mirror such as https://hf-mirror.com</source>
            <translation>Default (leave empty), or a mirror such as https://hf-mirror.com</translation>
        </message>
        <message>
            <source>Hugging Face token</source>
            <translation>Hugging Face token</translation>
        </message>
        <message>
            <source>ModelScope token</source>
            <translation>ModelScope token</translation>
        </message>
        <message>
            <source>A token is stored in the system keyring; type to replace it</source>
            <translation>A token is stored in the system keyring; type to replace it</translation>
        </message>
        <message>
            <source>Optional; stored in the system keyring</source>
            <translation>Optional; stored in the system keyring</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>Remove</translation>
        </message>
        <message>
            <source>Application</source>
            <translation>Application</translation>
        </message>
        <message>
            <source>Model cache</source>
            <translation>Model cache</translation>
        </message>
        <message>
            <source>Default location</source>
            <translation>Default location</translation>
        </message>
        <message>
            <source>Tandem's model entries (links to the downloaded files) go here. The files themselves stay in the Hugging Face or ModelScope cache, shared with other tools, so models already there are found again after a change.</source>
            <translation>Tandem's model entries (links to the downloaded files) go here. The files themselves stay in the Hugging Face or ModelScope cache, shared with other tools, so models already there are found again after a change.</translation>
        </message>
        <message>
            <source>Browse…</source>
            <translation>Browse…</translation>
        </message>
        <message>
            <source>Default engine</source>
            <translation>Default engine</translation>
        </message>
        <message>
            <source>Language</source>
            <translation>Language</translation>
        </message>
        <message>
            <source>System language</source>
            <translation>System language</translation>
        </message>
    </context>
    <context>
        <name>StatsDialog</name>
        <message>
            <source>Answer statistics</source>
            <translation>Answer statistics</translation>
        </message>
        <message>
            <source>Decode speed</source>
            <translation>Decode speed</translation>
        </message>
        <message>
            <source>{value} tok/s</source>
            <translation>{value} tok/s</translation>
        </message>
        <message>
            <source>Time to first token</source>
            <translation>Time to first token</translation>
        </message>
        <message>
            <source>Total time</source>
            <translation>Total time</translation>
        </message>
        <message>
            <source>Prompt tokens</source>
            <translation>Prompt tokens</translation>
        </message>
        <message>
            <source>Completion tokens</source>
            <translation>Completion tokens</translation>
        </message>
        <message>
            <source>Rounds</source>
            <translation>Rounds</translation>
        </message>
        <message>
            <source>Drafted / accepted</source>
            <translation>Drafted / accepted</translation>
        </message>
        <message>
            <source>Acceptance rate</source>
            <translation>Acceptance rate</translation>
        </message>
        <message>
            <source>Mean tokens per round</source>
            <translation>Mean tokens per round</translation>
        </message>
        <message>
            <source>Speculation</source>
            <translation>Speculation</translation>
        </message>
        <message>
            <source>off</source>
            <translation>off</translation>
        </message>
        <message>
            <source>Finish reason</source>
            <translation>Finish reason</translation>
        </message>
        <message>
            <source>The plain speed is the median of this model's recent answers without speculation on this machine. Approximate, since the prompts differ; `tandem bench` measures both side by side.</source>
            <translation>The plain speed is the median of this model's recent answers without speculation on this machine. Approximate, since the prompts differ; `tandem bench` measures both side by side.</translation>
        </message>
        <message>
            <source>Relaunch the model with speculation off and get one answer: Tandem then compares speculative answers with it automatically.</source>
            <translation>Relaunch the model with speculation off and get one answer: Tandem then compares speculative answers with it automatically.</translation>
        </message>
        <message>
            <source>Round</source>
            <translation>Round</translation>
        </message>
        <message>
            <source>Drafted</source>
            <translation>Drafted</translation>
        </message>
        <message>
            <source>Accepted</source>
            <translation>Accepted</translation>
        </message>
        <message>
            <source>not measured</source>
            <translation>not measured</translation>
        </message>
        <message>
            <source>Plain decode speed</source>
            <translation>Plain decode speed</translation>
        </message>
        <message>
            <source>Speedup vs plain</source>
            <translation>Speedup vs plain</translation>
        </message>
        <message>
            <source>Plain answers measured</source>
            <translation>Plain answers measured</translation>
        </message>
    </context>
    <context>
        <name>StatsStrip</name>
        <message>
            <source>Click for per-round details</source>
            <extracomment>a speedup inside [SLOWER, FASTER] is "about the same"; below SLOWER the strip warns</extracomment>
            <translation>Click for per-round details</translation>
        </message>
        <message>
            <source>{value} tok/s</source>
            <translation>{value} tok/s</translation>
        </message>
        <message>
            <source>first token {value}</source>
            <translation>first token {value}</translation>
        </message>
        <message>
            <source>{n} rounds</source>
            <translation>{n} rounds</translation>
        </message>
        <message>
            <source>no speculation</source>
            <translation>no speculation</translation>
        </message>
        <message>
            <source>{value} accepted</source>
            <translation>{value} accepted</translation>
        </message>
        <message>
            <source>{value} tokens/round</source>
            <translation>{value} tokens/round</translation>
        </message>
        <message>
            <source>Share of drafted tokens the model accepted</source>
            <translation>Share of drafted tokens the model accepted</translation>
        </message>
        <message>
            <source>Tokens produced per verification round: accepted drafts plus one</source>
            <translation>Tokens produced per verification round: accepted drafts plus one</translation>
        </message>
        <message>
            <source>Per-round acceptance: grey = drafted, green = accepted</source>
            <translation>Per-round acceptance: grey = drafted, green = accepted</translation>
        </message>
        <message>
            <source>speedup: not measured</source>
            <translation>speedup: not measured</translation>
        </message>
        <message>
            <source>Tandem has not seen this model answer without speculation on this machine yet. Relaunch the model with speculation off and get one answer of at least {n} tokens, then load it with speculation again: later answers show the speedup automatically.</source>
            <translation>Tandem has not seen this model answer without speculation on this machine yet. Relaunch the model with speculation off and get one answer of at least {n} tokens, then load it with speculation again: later answers show the speedup automatically.</translation>
        </message>
        <message>
            <source>{value}× vs plain</source>
            <translation>{value}× vs plain</translation>
        </message>
        <message>
            <source>Decode speed compared with this model without speculation on this machine: {baseline} tok/s, the median of its recent plain answers (samples: {n}). Approximate, since the prompts differ; `tandem bench` measures both side by side.</source>
            <translation>Decode speed compared with this model without speculation on this machine: {baseline} tok/s, the median of its recent plain answers (samples: {n}). Approximate, since the prompts differ; `tandem bench` measures both side by side.</translation>
        </message>
        <message>
            <source>Speculation is slower than plain decoding here: try fewer draft tokens per round, or launch the model without speculation.</source>
            <translation>Speculation is slower than plain decoding here: try fewer draft tokens per round, or launch the model without speculation.</translation>
        </message>
    </context>
</TS>
