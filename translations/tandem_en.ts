<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
    <context>
        <name>AcceptanceFigures</name>
        <message>
            <source>llama.cpp timings</source>
            <translation>llama.cpp timings</translation>
        </message>
        <message>
            <source>vLLM per-request metrics</source>
            <translation>vLLM per-request metrics</translation>
        </message>
        <message>
            <source>vLLM /metrics counters</source>
            <translation>vLLM /metrics counters</translation>
        </message>
        <message>
            <source>this server does not report acceptance</source>
            <translation>this server does not report acceptance</translation>
        </message>
        <message>
            <source>The counters are server-wide, read before and after this request: other requests running on the server at the same time are counted too.</source>
            <extracomment>the notes :mod:`app.core.engines.remote.acceptance` writes (an unknown one is shown as written)</extracomment>
            <translation>The counters are server-wide, read before and after this request: other requests running on the server at the same time are counted too.</translation>
        </message>
        <message>
            <source>Accepted tokens are the completion tokens minus the verification passes; the server does not report how many tokens were drafted.</source>
            <translation>Accepted tokens are the completion tokens minus the verification passes; the server does not report how many tokens were drafted.</translation>
        </message>
        <message>
            <source>The server sent no drafting figures with this answer, so Tandem shows none: it may run without a drafter, or be a kind of server that does not report them.</source>
            <translation>The server sent no drafting figures with this answer, so Tandem shows none: it may run without a drafter, or be a kind of server that does not report them.</translation>
        </message>
        <message>
            <source>As the server reported them: {source}.</source>
            <translation>As the server reported them: {source}.</translation>
        </message>
        <message>
            <source>{n} draft tokens accepted (drafted not reported)</source>
            <translation>{n} draft tokens accepted (drafted not reported)</translation>
        </message>
        <message>
            <source>not reported</source>
            <translation>not reported</translation>
        </message>
    </context>
    <context>
        <name>AddServerDialog</name>
        <message>
            <source>Add an MCP server</source>
            <extracomment>the tree's columns</extracomment>
            <translation>Add an MCP server</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>Name</translation>
        </message>
        <message>
            <source>Command or URL</source>
            <translation>Command or URL</translation>
        </message>
        <message>
            <source>npx -y @modelcontextprotocol/server-filesystem ~/notes</source>
            <translation>npx -y @modelcontextprotocol/server-filesystem ~/notes</translation>
        </message>
    </context>
    <context>
        <name>AnswerEnding</name>
        <message>
            <source>context full</source>
            <translation>context full</translation>
        </message>
        <message>
            <source>The answer stopped at the end of the model's context: the conversation and this answer take {used} tokens, before Max new tokens ({max}) was reached. Start a new chat, or load the model with a larger context length.</source>
            <translation>The answer stopped at the end of the model's context: the conversation and this answer take {used} tokens, before Max new tokens ({max}) was reached. Start a new chat, or load the model with a larger context length.</translation>
        </message>
        <message>
            <source>Max new tokens reached</source>
            <translation>Max new tokens reached</translation>
        </message>
        <message>
            <source>The answer stopped at Max new tokens ({max}). Raise it in the conversation settings, or ask the model to go on.</source>
            <translation>The answer stopped at Max new tokens ({max}). Raise it in the conversation settings, or ask the model to go on.</translation>
        </message>
        <message>
            <source>length limit reached</source>
            <translation>length limit reached</translation>
        </message>
        <message>
            <source>The answer stopped at Max new tokens or at the end of the model's context.</source>
            <translation>The answer stopped at Max new tokens or at the end of the model's context.</translation>
        </message>
        <message>
            <source>the model ended its answer</source>
            <translation>the model ended its answer</translation>
        </message>
        <message>
            <source>stopped</source>
            <translation>stopped</translation>
        </message>
        <message>
            <source>an error stopped it</source>
            <translation>an error stopped it</translation>
        </message>
    </context>
    <context>
        <name>Attachments</name>
        <message>
            <source>the file is empty</source>
            <extracomment>the longest side of a thumbnail in a message and in the composer</extracomment>
            <translation>the file is empty</translation>
        </message>
        <message>
            <source>the image is {mb:.1f} MB; the limit is {limit} MB (save it smaller or as JPEG)</source>
            <translation>the image is {mb:.1f} MB; the limit is {limit} MB (save it smaller or as JPEG)</translation>
        </message>
        <message>
            <source>SVG drawings are not supported; export it as PNG or JPEG and attach that</source>
            <translation>SVG drawings are not supported; export it as PNG or JPEG and attach that</translation>
        </message>
        <message>
            <source>{fmt} images are not supported; use PNG, JPEG, WebP, GIF or BMP</source>
            <translation>{fmt} images are not supported; use PNG, JPEG, WebP, GIF or BMP</translation>
        </message>
        <message>
            <source>the image has more than {limit} megapixels; scale it down and attach it again</source>
            <translation>the image has more than {limit} megapixels; scale it down and attach it again</translation>
        </message>
        <message>
            <source>this is not an image Tandem can read (PNG, JPEG, WebP, GIF or BMP)</source>
            <translation>this is not an image Tandem can read (PNG, JPEG, WebP, GIF or BMP)</translation>
        </message>
        <message>
            <source>the image is damaged or cut short</source>
            <translation>the image is damaged or cut short</translation>
        </message>
        <message>
            <source>the file cannot be read</source>
            <translation>the file cannot be read</translation>
        </message>
        <message>
            <source>the image cannot be saved; free some disk space and send again</source>
            <translation>the image cannot be saved; free some disk space and send again</translation>
        </message>
    </context>
    <context>
        <name>AutoPanel</name>
        <message>
            <source>Checking for a stored measurement…</source>
            <translation>Checking for a stored measurement…</translation>
        </message>
        <message>
            <source>Measuring which speculation pays on this machine…</source>
            <translation>Measuring which speculation pays on this machine…</translation>
        </message>
        <message>
            <source>Auto chose: {config}</source>
            <translation>Auto chose: {config}</translation>
        </message>
        <message>
            <source>Measured in {seconds:.0f} s; stored in {path}</source>
            <translation>Measured in {seconds:.0f} s; stored in {path}</translation>
        </message>
        <message>
            <source>Auto could not measure: {reason}</source>
            <translation>Auto could not measure: {reason}</translation>
        </message>
        <message>
            <source>The measurement was cancelled; nothing was stored.</source>
            <translation>The measurement was cancelled; nothing was stored.</translation>
        </message>
        <message>
            <source>Learned from your answers: {routes}</source>
            <translation>Learned from your answers: {routes}</translation>
        </message>
        <message>
            <source>{config} within {error}% ({answers} answers)</source>
            <translation>{config} within {error}% ({answers} answers)</translation>
        </message>
        <message>
            <source>Predictions against your answers: {rows}</source>
            <translation>Predictions against your answers: {rows}</translation>
        </message>
        <message>
            <source>After every answer Tandem predicts what each configuration would have done on it, from its drafts replayed over the answer and what each pass costs on this machine. The configuration that answered is predicted too: this is the median gap between that prediction and the speed the answer measured.</source>
            <translation>After every answer Tandem predicts what each configuration would have done on it, from its drafts replayed over the answer and what each pass costs on this machine. The configuration that answered is predicted too: this is the median gap between that prediction and the speed the answer measured.</translation>
        </message>
        <message>
            <source>prose</source>
            <translation>prose</translation>
        </message>
        <message>
            <source>code edit</source>
            <translation>code edit</translation>
        </message>
        <message>
            <source>repeat</source>
            <translation>repeat</translation>
        </message>
        <message>
            <source>agent turn</source>
            <translation>agent turn</translation>
        </message>
        <message>
            <source>document question</source>
            <translation>document question</translation>
        </message>
        <message>
            <source>{measured}, for {kinds}</source>
            <translation>{measured}, for {kinds}</translation>
        </message>
        <message>
            <source>{measured}, not used</source>
            <translation>{measured}, not used</translation>
        </message>
        <message>
            <source>off: nothing was faster than plain decoding beyond the measured noise</source>
            <translation>off: nothing was faster than plain decoding beyond the measured noise</translation>
        </message>
        <message>
            <source>off: no configuration was faster without being slower on prose</source>
            <translation>off: no configuration was faster without being slower on prose</translation>
        </message>
        <message>
            <source>Auto: measure and use what pays on this machine</source>
            <translation>Auto: measure and use what pays on this machine</translation>
        </message>
        <message>
            <source>Auto compares speculation off with the drafter at a few depths and the engine's model-free methods on short fixed prompts, once per model, drafter, engine and machine, and keeps the fastest that is never slower on prose; configurations within the measured noise of each other are a tie, and a tie goes to the cheaper one. It measures in the background while you are idle and answers meanwhile with its best guess; a choice that loses on your answers is dropped. Choosing a drafter or a model-free method yourself turns Auto off.</source>
            <translation>Auto compares speculation off with the drafter at a few depths and the engine's model-free methods on short fixed prompts, once per model, drafter, engine and machine, and keeps the fastest that is never slower on prose; configurations within the measured noise of each other are a tie, and a tie goes to the cheaper one. It measures in the background while you are idle and answers meanwhile with its best guess; a choice that loses on your answers is dropped. Choosing a drafter or a model-free method yourself turns Auto off.</translation>
        </message>
        <message>
            <source>Re-measure</source>
            <extracomment>what Auto learned from real answers, per kind how far the cost model's predictions were from the answers' measured speed, per configuration: (median |predicted / measured - 1|, answers)</extracomment>
            <translation>Re-measure</translation>
        </message>
        <message>
            <source>Measure now</source>
            <translation>Measure now</translation>
        </message>
        <message>
            <source>Auto chooses once the settings below can launch: see the message there.</source>
            <translation>Auto chooses once the settings below can launch: see the message there.</translation>
        </message>
        <message>
            <source>Not measured yet: once the model is downloaded, Auto answers at once and measures in the background while you are idle.</source>
            <translation>Not measured yet: once the model is downloaded, Auto answers at once and measures in the background while you are idle.</translation>
        </message>
        <message>
            <source>Not measured yet: Auto answers with {config} at once and measures in the background while you are idle (about {seconds} s).</source>
            <translation>Not measured yet: Auto answers with {config} at once and measures in the background while you are idle (about {seconds} s).</translation>
        </message>
        <message>
            <source>{kind}: {config}, not enough answers yet ({answers} so far)</source>
            <translation>{kind}: {config}, not enough answers yet ({answers} so far)</translation>
        </message>
        <message>
            <source>{kind}: {config}, {figure}, from {answers} answers</source>
            <translation>{kind}: {config}, {figure}, from {answers} answers</translation>
        </message>
        <message>
            <source>Auto records each answer's speed per kind of request and configuration. A route moves only when another configuration is faster beyond the measured noise, and now and then an answer tries an alternative that could be faster.</source>
            <translation>Auto records each answer's speed per kind of request and configuration. A route moves only when another configuration is faster beyond the measured noise, and now and then an answer tries an alternative that could be faster.</translation>
        </message>
        <message>
            <source>{speedup:.2f}x faster (at least {low:.2f}x)</source>
            <translation>{speedup:.2f}x faster (at least {low:.2f}x)</translation>
        </message>
        <message>
            <source>slower ({speedup:.2f}x the speed)</source>
            <translation>slower ({speedup:.2f}x the speed)</translation>
        </message>
        <message>
            <source>no clear difference ({speedup:.2f}x)</source>
            <translation>no clear difference ({speedup:.2f}x)</translation>
        </message>
        <message>
            <source>Each figure is a speed against speculation off on this machine. Faster and slower are sure beyond the measured noise, and "at least" is the lowest the speedup is likely to be. No clear difference: the two speeds are within the noise. Not enough answers yet, or too uncertain to tell: the figure could still be far off either way.</source>
            <translation>Each figure is a speed against speculation off on this machine. Faster and slower are sure beyond the measured noise, and "at least" is the lowest the speedup is likely to be. No clear difference: the two speeds are within the noise. Not enough answers yet, or too uncertain to tell: the figure could still be far off either way.</translation>
        </message>
        <message>
            <source>{config}: {prose} on prose, {code} on code edits, {repeat} on repeats</source>
            <translation>{config}: {prose} on prose, {code} on code edits, {repeat} on repeats</translation>
        </message>
        <message>
            <source>not measured</source>
            <translation>not measured</translation>
        </message>
        <message>
            <source>too uncertain to tell</source>
            <translation>too uncertain to tell</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Cancel</translation>
        </message>
    </context>
    <context>
        <name>AutoTuner</name>
        <message>
            <source>Auto: {config} (changed from {old}: {why})</source>
            <extracomment>the name of the calibration's thread the calibration under way (on a thread of its own, :meth:`~app.gui.ops.Ops.start_own`) free memory now (bytes); tests replace it</extracomment>
            <translation>Auto: {config} (changed from {old}: {why})</translation>
        </message>
        <message>
            <source>Auto: {config} (not measured: too little free memory)</source>
            <translation>Auto: {config} (not measured: too little free memory)</translation>
        </message>
        <message>
            <source>Auto: {config} while measuring</source>
            <translation>Auto: {config} while measuring</translation>
        </message>
        <message>
            <source>Measuring would load the model twice more beside the chat ({need} GB) and {free} GB is free, so Auto does not measure in the background: it keeps the best guess for this model and still demotes it if your answers come out slower than plain. Close other programs and Auto measures at the next idle moment, or use Re-measure in the launch dialog.</source>
            <translation>Measuring would load the model twice more beside the chat ({need} GB) and {free} GB is free, so Auto does not measure in the background: it keeps the best guess for this model and still demotes it if your answers come out slower than plain. Close other programs and Auto measures at the next idle moment, or use Re-measure in the launch dialog.</translation>
        </message>
        <message>
            <source>Nothing is measured on this machine yet, so Auto answers with the best guess for this model and measures which speculation pays while you are idle. A new message stops the measurement at once; Auto switches between answers, never during one.</source>
            <translation>Nothing is measured on this machine yet, so Auto answers with the best guess for this model and measures which speculation pays while you are idle. A new message stops the measurement at once; Auto switches between answers, never during one.</translation>
        </message>
        <message>
            <source>measured on this machine</source>
            <translation>measured on this machine</translation>
        </message>
        <message>
            <source>{ratio} vs plain on your answers</source>
            <translation>{ratio} vs plain on your answers</translation>
        </message>
    </context>
    <context>
        <name>BrowserPage</name>
        <message>
            <source>This entry is invalid and was skipped: {reason}</source>
            <translation>This entry is invalid and was skipped: {reason}</translation>
        </message>
        <message>
            <source>Chat</source>
            <translation>Chat</translation>
        </message>
        <message>
            <source>Continues text (base model)</source>
            <translation>Continues text (base model)</translation>
        </message>
        <message>
            <source>Reasoning</source>
            <translation>Reasoning</translation>
        </message>
        <message>
            <source>Built-in MTP heads</source>
            <translation>Built-in MTP heads</translation>
        </message>
        <message>
            <source>{tokens} tokens of context</source>
            <translation>{tokens} tokens of context</translation>
        </message>
        <message>
            <source>{verdict} at {ctx} tokens</source>
            <translation>{verdict} at {ctx} tokens</translation>
        </message>
        <message>
            <source>Largest quantization that fits: {quant}</source>
            <translation>Largest quantization that fits: {quant}</translation>
        </message>
        <message>
            <source>Fits in memory</source>
            <translation>Fits in memory</translation>
        </message>
        <message>
            <source>Tight: it needs most of the free memory</source>
            <translation>Tight: it needs most of the free memory</translation>
        </message>
        <message>
            <source>Too large for this machine's free memory</source>
            <translation>Too large for this machine's free memory</translation>
        </message>
        <message>
            <source>Memory need unknown</source>
            <translation>Memory need unknown</translation>
        </message>
        <message>
            <source>Models</source>
            <translation>Models</translation>
        </message>
        <message>
            <source>What this model can do, from its model card and configuration</source>
            <translation>What this model can do, from its model card and configuration</translation>
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
            <source>Reads images</source>
            <translation>Reads images</translation>
        </message>
        <message>
            <source>Only models that can read images you attach</source>
            <translation>Only models that can read images you attach</translation>
        </message>
        <message>
            <source>Calls tools</source>
            <translation>Calls tools</translation>
        </message>
        <message>
            <source>Together: {size}</source>
            <extracomment>The detail card repaints at most this often while the selection changes (about 30 frames/s).</extracomment>
            <translation>Together: {size}</translation>
        </message>
        <message>
            <source>Only models that can call tools (functions) you describe</source>
            <translation>Only models that can call tools (functions) you describe</translation>
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
            <source>Refresh from hub</source>
            <translation>Refresh from hub</translation>
        </message>
        <message>
            <source>Read the quantizations this variant's repositories hold now (the catalog lists what was published when it was written); new ones are added, missing ones are named.</source>
            <translation>Read the quantizations this variant's repositories hold now (the catalog lists what was published when it was written); new ones are added, missing ones are named.</translation>
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
        <name>Calibration</name>
        <message>
            <source>loading the model without speculation</source>
            <translation>loading the model without speculation</translation>
        </message>
        <message>
            <source>{config}: speed without speculation</source>
            <translation>{config}: speed without speculation</translation>
        </message>
        <message>
            <source>loading {config}</source>
            <translation>loading {config}</translation>
        </message>
        <message>
            <source>{config}: prose, speculation off</source>
            <translation>{config}: prose, speculation off</translation>
        </message>
        <message>
            <source>{config}: prose</source>
            <translation>{config}: prose</translation>
        </message>
        <message>
            <source>{config}: code edit, speculation off</source>
            <translation>{config}: code edit, speculation off</translation>
        </message>
        <message>
            <source>{config}: code edit</source>
            <translation>{config}: code edit</translation>
        </message>
        <message>
            <source>{config}: the same code edit again</source>
            <translation>{config}: the same code edit again</translation>
        </message>
        <message>
            <source>{config}: prose again, speculation off</source>
            <translation>{config}: prose again, speculation off</translation>
        </message>
        <message>
            <source>{config}: prose again</source>
            <translation>{config}: prose again</translation>
        </message>
        <message>
            <source>measured</source>
            <translation>measured</translation>
        </message>
    </context>
    <context>
        <name>ChatController</name>
        <message>
            <source>The tool servers could not be read</source>
            <extracomment>the running answer of each conversation that has one shows and saves the running answers as they grow (its timer's tick is :meth:`_flush`) the conversation's model, switched to before its answer a message waiting for its conversation's model to load ends the answers: their rows, bubbles and figures, or the failure reported runs each answer's task (a window's operations, or the chat's own without one) puts each answer's documents into its prompt; opens the documents' files reads each answer from the engine host the MCP servers offered to the model (None without ops: no tools) runs a message's tool loop (None without tools)</extracomment>
            <translation>The tool servers could not be read</translation>
        </message>
        <message>
            <source>New chat</source>
            <translation>New chat</translation>
        </message>
        <message>
            <source>No model loaded</source>
            <translation>No model loaded</translation>
        </message>
        <message>
            <source>The model is still loading.</source>
            <translation>The model is still loading.</translation>
        </message>
        <message>
            <source>Your message stays in the box; send it again once the load bar is gone.</source>
            <translation>Your message stays in the box; send it again once the load bar is gone.</translation>
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
            <source>Loading {model}…</source>
            <translation>Loading {model}…</translation>
        </message>
        <message>
            <source>This message needs {needed} tokens with the system prompt, but the model's context holds {n_ctx} tokens and {reserved} of them are kept for the answer.</source>
            <extracomment>the conversation shown, if any the chat's actions follow its running answers</extracomment>
            <translation>This message needs {needed} tokens with the system prompt, but the model's context holds {n_ctx} tokens and {reserved} of them are kept for the answer.</translation>
        </message>
        <message>
            <source>Shorten the message, lower Max new tokens in Sampling, or load the model with a larger context length.</source>
            <translation>Shorten the message, lower Max new tokens in Sampling, or load the model with a larger context length.</translation>
        </message>
        <message>
            <source>The answer could not be generated</source>
            <translation>The answer could not be generated</translation>
        </message>
        <message>
            <source>This answer's model is not loaded.</source>
            <extracomment>the answer being measured the documents of its conversation, by stored name</extracomment>
            <translation>This answer's model is not loaded.</translation>
        </message>
        <message>
            <source>Load {model} again to measure this answer.</source>
            <translation>Load {model} again to measure this answer.</translation>
        </message>
        <message>
            <source>The answer could not be measured</source>
            <translation>The answer could not be measured</translation>
        </message>
        <message>
            <source>Off</source>
            <extracomment>the choice of a chat not yet stored the configuration that wrote each conversation's last answer in this session: the header names the shown conversation's (a new chat has none)</extracomment>
            <translation>Off</translation>
        </message>
        <message>
            <source>This conversation's speculation choice is {choice}, but the loaded model runs {running} and cannot change it without a reload.</source>
            <translation>This conversation's speculation choice is {choice}, but the loaded model runs {running} and cannot change it without a reload.</translation>
        </message>
        <message>
            <source>no speculation</source>
            <translation>no speculation</translation>
        </message>
        <message>
            <source>Choose Auto beside the conversation's title, or reload the model with that choice.</source>
            <translation>Choose Auto beside the conversation's title, or reload the model with that choice.</translation>
        </message>
        <message>
            <source>An image</source>
            <translation>An image</translation>
        </message>
        <message>
            <source>{n} images</source>
            <translation>{n} images</translation>
        </message>
        <message>
            <source>The models on disk could not be read</source>
            <extracomment>its id in the local API (as ``tandem serve --all`` names it) the model of a chat not yet stored ("": the loaded one) the models on disk were read (they are read when first needed: the list opens, a conversation that chose a model answers, the Local server starts)</extracomment>
            <translation>The models on disk could not be read</translation>
        </message>
        <message>
            <source>Reading {file}…</source>
            <extracomment>what the worker reports: ("reading" | "indexing", file name) or ("fitting", "")</extracomment>
            <translation>Reading {file}…</translation>
        </message>
        <message>
            <source>Finding the passages of {file}…</source>
            <translation>Finding the passages of {file}…</translation>
        </message>
        <message>
            <source>Reading the documents…</source>
            <translation>Reading the documents…</translation>
        </message>
        <message>
            <source>{file} cannot be opened.</source>
            <extracomment>the chat's sampling now (its max new tokens set the answer's reserve) opens a file's address with the desktop's application for it</extracomment>
            <translation>{file} cannot be opened.</translation>
        </message>
        <message>
            <source>Its stored copy is gone or unreadable; attach the file again.</source>
            <translation>Its stored copy is gone or unreadable; attach the file again.</translation>
        </message>
        <message>
            <source>The message it was attached to is no longer in this conversation.</source>
            <translation>The message it was attached to is no longer in this conversation.</translation>
        </message>
    </context>
    <context>
        <name>ChatTools</name>
        <message>
            <source>The tool servers could not be started</source>
            <extracomment>the stored servers; None until read (the first second of a start) the loop's options for each message (the turn cap); a message's tool choice is its own the running servers (None until the configuration is read)</extracomment>
            <translation>The tool servers could not be started</translation>
        </message>
    </context>
    <context>
        <name>ChatView</name>
        <message>
            <source>Highlight drafted tokens</source>
            <extracomment>a conversation opens with its last messages built at once, the earlier ones a batch per turn where a stored image name's file is (the controller sets it from its chat store) where a stored document name's file is (set like image_path) earlier messages of the shown conversation still to be built (oldest first) the user is reading earlier messages while they are built above: this built bubble stays this far (column y minus scroll value) from the top of the view, however tall the messages built above it are (a range delta was fooled by Qt's passing range of 0) the loaded family's ``tool_parser``; None: tagged tool calls are still found by their tags</extracomment>
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
        <message>
            <source>Switch speculation off</source>
            <translation>Switch speculation off</translation>
        </message>
        <message>
            <source>Re-measure</source>
            <translation>Re-measure</translation>
        </message>
        <message>
            <source>Auto chose {method}, but {slower} of your last {n} answers were slower than without speculation ({ratios}).</source>
            <translation>Auto chose {method}, but {slower} of your last {n} answers were slower than without speculation ({ratios}).</translation>
        </message>
    </context>
    <context>
        <name>Composer</name>
        <message>
            <source>Images and documents ({patterns})</source>
            <extracomment>the message box's height at rest (about three lines), and the share of the window it may grow to the enabled servers' states and the names of the tools offered (see set_tools) images waiting to be sent with the message the loaded model reads images (None: nothing loaded); attachments to a model that does not are named in the notice at once, before anything is sent documents waiting to be sent with the message (some may still be being read) reads documents off the GUI thread (None: read at once, on this thread) Send was pressed while documents were being read: the message goes once they are</extracomment>
            <translation>Images and documents ({patterns})</translation>
        </message>
        <message>
            <source>Images ({patterns})</source>
            <translation>Images ({patterns})</translation>
        </message>
        <message>
            <source>Documents ({patterns})</source>
            <translation>Documents ({patterns})</translation>
        </message>
        <message>
            <source>All files (*)</source>
            <translation>All files (*)</translation>
        </message>
        <message>
            <source>Attach images or documents</source>
            <translation>Attach images or documents</translation>
        </message>
        <message>
            <source>At most {n} images per message; the rest were not attached.</source>
            <translation>At most {n} images per message; the rest were not attached.</translation>
        </message>
        <message>
            <source>pasted image {n}</source>
            <translation>pasted image {n}</translation>
        </message>
        <message>
            <source>At most {n} documents per message; the rest were not attached.</source>
            <translation>At most {n} documents per message; the rest were not attached.</translation>
        </message>
        <message>
            <source>Auto</source>
            <translation>Auto</translation>
        </message>
        <message>
            <source>None</source>
            <translation>None</translation>
        </message>
        <message>
            <source>Any tool</source>
            <translation>Any tool</translation>
        </message>
        <message>
            <source>Call {name}</source>
            <translation>Call {name}</translation>
        </message>
        <message>
            <source>running</source>
            <translation>running</translation>
        </message>
        <message>
            <source>starting</source>
            <translation>starting</translation>
        </message>
        <message>
            <source>failed: {reason}</source>
            <translation>failed: {reason}</translation>
        </message>
        <message>
            <source>not started</source>
            <translation>not started</translation>
        </message>
        <message>
            <source>1 tool</source>
            <translation>1 tool</translation>
        </message>
        <message>
            <source>{n} tools</source>
            <translation>{n} tools</translation>
        </message>
        <message>
            <source>{tools} · starting…</source>
            <translation>{tools} · starting…</translation>
        </message>
        <message>
            <source>{tools} · {servers} failed</source>
            <translation>{tools} · {servers} failed</translation>
        </message>
        <message>
            <source>Tools the model is offered</source>
            <translation>Tools the model is offered</translation>
        </message>
        <message>
            <source>The servers have not started yet.</source>
            <translation>The servers have not started yet.</translation>
        </message>
        <message>
            <source>Turn tools on or off in Settings → Tools.</source>
            <translation>Turn tools on or off in Settings → Tools.</translation>
        </message>
        <message>
            <source>Sending once {file} is read…</source>
            <translation>Sending once {file} is read…</translation>
        </message>
        <message>
            <source>The loaded model cannot read images: load a vision model to send these.</source>
            <translation>The loaded model cannot read images: load a vision model to send these.</translation>
        </message>
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
        <message>
            <source>Attach images (PNG, JPEG, WebP, GIF or BMP) or documents (text, Markdown, code, CSV, HTML, PDF or DOCX); you can also paste or drop them here</source>
            <translation>Attach images (PNG, JPEG, WebP, GIF or BMP) or documents (text, Markdown, code, CSV, HTML, PDF or DOCX); you can also paste or drop them here</translation>
        </message>
        <message>
            <source>Tool choice:</source>
            <translation>Tool choice:</translation>
        </message>
        <message>
            <source>For this message: Auto lets the model decide; None offers no tools; Any tool or a named tool makes the model call one first. Back to Auto after sending.</source>
            <translation>For this message: Auto lets the model decide; None offers no tools; Any tool or a named tool makes the model call one first. Back to Auto after sending.</translation>
        </message>
    </context>
    <context>
        <name>Configuration</name>
        <message>
            <source>off</source>
            <extracomment>a speedup inside [SLOWER, FASTER] is "about the same"; below SLOWER the strip warns</extracomment>
            <translation>off</translation>
        </message>
        <message>
            <source>{n}/round</source>
            <translation>{n}/round</translation>
        </message>
    </context>
    <context>
        <name>ConversationsModel</name>
        <message>
            <source>Writing an answer…</source>
            <extracomment>the last search's hits: conversation id -&gt; the text around its first hit the conversations whose answer is being written (a pencil, and a line in the tooltip)</extracomment>
            <translation>Writing an answer…</translation>
        </message>
    </context>
    <context>
        <name>ConversationsPanel</name>
        <message>
            <source>New chat</source>
            <extracomment>a search runs this long after the last keystroke (one query per pause, not per key)</extracomment>
            <translation>New chat</translation>
        </message>
        <message>
            <source>Rename</source>
            <translation>Rename</translation>
        </message>
        <message>
            <source>Export conversation</source>
            <translation>Export conversation</translation>
        </message>
        <message>
            <source>Delete conversation</source>
            <translation>Delete conversation</translation>
        </message>
        <message>
            <source>Search conversations</source>
            <translation>Search conversations</translation>
        </message>
        <message>
            <source>Shows the conversations whose title or messages hold this text</source>
            <translation>Shows the conversations whose title or messages hold this text</translation>
        </message>
        <message>
            <source>No conversation holds this text.</source>
            <translation>No conversation holds this text.</translation>
        </message>
        <message>
            <source>Markdown with images (*.md)</source>
            <translation>Markdown with images (*.md)</translation>
        </message>
        <message>
            <source>Web page (*.html)</source>
            <translation>Web page (*.html)</translation>
        </message>
        <message>
            <source>JSON, OpenAI messages with speculation figures (*.json)</source>
            <translation>JSON, OpenAI messages with speculation figures (*.json)</translation>
        </message>
        <message>
            <source>The conversation could not be exported: {error}</source>
            <translation>The conversation could not be exported: {error}</translation>
        </message>
    </context>
    <context>
        <name>DeleteDialog</name>
        <message>
            <source>Also deletes the model and drafter files from the {hub} cache, unless another Tandem model still uses them. Other tools that share this cache (the hf command, Python scripts, other apps) lose these files and must download them again.</source>
            <extracomment>the model is the one loaded now: it is unloaded before its files go</extracomment>
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
            <source>It is the loaded model: Tandem unloads it first.</source>
            <translation>It is the loaded model: Tandem unloads it first.</translation>
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
            <translation>Enter a whole number greater than zero, or leave it empty.</translation>
        </message>
    </context>
    <context>
        <name>DocumentChip</name>
        <message>
            <source>Reading…</source>
            <translation>Reading…</translation>
        </message>
        <message>
            <source>Reading {file}…</source>
            <translation>Reading {file}…</translation>
        </message>
        <message>
            <source>Open {file}</source>
            <translation>Open {file}</translation>
        </message>
        <message>
            <source>Remove this document</source>
            <translation>Remove this document</translation>
        </message>
    </context>
    <context>
        <name>Documents</name>
        <message>
            <source>{n} bytes</source>
            <extracomment>the most documents one message carries a document longer than this (estimated tokens) gets its passage index built when it is read, off the GUI thread, so the question that needs it does not wait for it the suffixes the file dialog's "Documents" filter shows (any other file can still be chosen under "All files": its bytes decide what it is) a chip's width range (pixels): long names are elided inside it the characters of a passage's first line shown in the sources list</extracomment>
            <translation>{n} bytes</translation>
        </message>
        <message>
            <source>1 page</source>
            <translation>1 page</translation>
        </message>
        <message>
            <source>{n} pages</source>
            <translation>{n} pages</translation>
        </message>
        <message>
            <source>the file is larger than Tandem reads ({limit} MB, or too much text); attach a smaller file, or split it</source>
            <translation>the file is larger than Tandem reads ({limit} MB, or too much text); attach a smaller file, or split it</translation>
        </message>
        <message>
            <source>the file has no text in it</source>
            <translation>the file has no text in it</translation>
        </message>
        <message>
            <source>this is a binary file, not text; attach a text, PDF or DOCX file</source>
            <translation>this is a binary file, not text; attach a text, PDF or DOCX file</translation>
        </message>
        <message>
            <source>the text is in an encoding Tandem does not read; save it as UTF-8 and attach it again</source>
            <translation>the text is in an encoding Tandem does not read; save it as UTF-8 and attach it again</translation>
        </message>
        <message>
            <source>the PDF is protected by a password; remove the protection and attach it again</source>
            <translation>the PDF is protected by a password; remove the protection and attach it again</translation>
        </message>
        <message>
            <source>the file is damaged and cannot be read; save it again (print a PDF to a new PDF) and attach that</source>
            <translation>the file is damaged and cannot be read; save it again (print a PDF to a new PDF) and attach that</translation>
        </message>
        <message>
            <source>the PDF has no text layer (a scanned document?); Tandem does not read text in images (no OCR): attach a PDF with text, or the text itself</source>
            <translation>the PDF has no text layer (a scanned document?); Tandem does not read text in images (no OCR): attach a PDF with text, or the text itself</translation>
        </message>
        <message>
            <source>the file cannot be read; check that it exists and can be opened</source>
            <translation>the file cannot be read; check that it exists and can be opened</translation>
        </message>
        <message>
            <source>Tandem does not read this kind of file; save it as DOCX, PDF or plain text and attach that</source>
            <translation>Tandem does not read this kind of file; save it as DOCX, PDF or plain text and attach that</translation>
        </message>
        <message>
            <source>the document cannot be saved; free some disk space and send again</source>
            <translation>the document cannot be saved; free some disk space and send again</translation>
        </message>
        <message>
            <source>the document is too large to index in the memory left; close other programs or unload a model, or attach a shorter part of it</source>
            <translation>the document is too large to index in the memory left; close other programs or unload a model, or attach a shorter part of it</translation>
        </message>
        <message>
            <source>a document of this conversation is no longer stored; edit the message</source>
            <translation>a document of this conversation is no longer stored; edit the message</translation>
        </message>
        <message>
            <source>The documents leave no room in the model's context: start a new conversation, or load the model with a larger context.</source>
            <translation>The documents leave no room in the model's context: start a new conversation, or load the model with a larger context.</translation>
        </message>
        <message>
            <source>{file} · whole document</source>
            <translation>{file} · whole document</translation>
        </message>
        <message>
            <source>{file} · page {page}</source>
            <translation>{file} · page {page}</translation>
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
        <name>EngineHints</name>
        <message>
            <source>Check the server in Settings → Tools; the conversation is kept as it was.</source>
            <translation>Check the server in Settings → Tools; the conversation is kept as it was.</translation>
        </message>
        <message>
            <source>Fix the field named above, then try again; nothing was changed.</source>
            <translation>Fix the field named above, then try again; nothing was changed.</translation>
        </message>
        <message>
            <source>Check the server's command (or address) and its settings in Settings → Tools, then start it again.</source>
            <translation>Check the server's command (or address) and its settings in Settings → Tools, then start it again.</translation>
        </message>
        <message>
            <source>Start the server in Settings → Tools, then send the message again.</source>
            <translation>Start the server in Settings → Tools, then send the message again.</translation>
        </message>
        <message>
            <source>The server may be busy or stuck: try again, or raise its time limit in Settings → Tools.</source>
            <translation>The server may be busy or stuck: try again, or raise its time limit in Settings → Tools.</translation>
        </message>
        <message>
            <source>Start the server again in Settings → Tools; its log may say why it stopped.</source>
            <translation>Start the server again in Settings → Tools; its log may say why it stopped.</translation>
        </message>
        <message>
            <source>The tool reported the error above; change the request or the tool's settings and try again.</source>
            <translation>The tool reported the error above; change the request or the tool's settings and try again.</translation>
        </message>
        <message>
            <source>Choose a tool that a running server offers, or let the model choose (tool choice auto).</source>
            <translation>Choose a tool that a running server offers, or let the model choose (tool choice auto).</translation>
        </message>
        <message>
            <source>Ask for the configuration that runs (or "auto"), or free memory and try again.</source>
            <translation>Ask for the configuration that runs (or "auto"), or free memory and try again.</translation>
        </message>
        <message>
            <source>Attach the picture again: its file changed or went away after it was attached.</source>
            <translation>Attach the picture again: its file changed or went away after it was attached.</translation>
        </message>
        <message>
            <source>Change the request; the model stays loaded.</source>
            <translation>Change the request; the model stays loaded.</translation>
        </message>
        <message>
            <source>Check that the file is a complete model download; delete and download it again if not.</source>
            <translation>Check that the file is a complete model download; delete and download it again if not.</translation>
        </message>
        <message>
            <source>Check that the file is a complete model llama.cpp supports, or pick another file.</source>
            <translation>Check that the file is a complete model llama.cpp supports, or pick another file.</translation>
        </message>
        <message>
            <source>Check that the server is running and the endpoint URL is right.</source>
            <translation>Check that the server is running and the endpoint URL is right.</translation>
        </message>
        <message>
            <source>Check the path: most servers answer under /v1, e.g. http://host:8000/v1</source>
            <translation>Check the path: most servers answer under /v1, e.g. http://host:8000/v1</translation>
        </message>
        <message>
            <source>Choose the drafter declared for this model, or turn speculative decoding off.</source>
            <translation>Choose the drafter declared for this model, or turn speculative decoding off.</translation>
        </message>
        <message>
            <source>Connect again.</source>
            <translation>Connect again.</translation>
        </message>
        <message>
            <source>Download it again or pick another file.</source>
            <translation>Download it again or pick another file.</translation>
        </message>
        <message>
            <source>Download the drafter declared for this model, or turn speculative decoding off.</source>
            <translation>Download the drafter declared for this model, or turn speculative decoding off.</translation>
        </message>
        <message>
            <source>Fix the speculative decoding settings and load again.</source>
            <translation>Fix the speculative decoding settings and load again.</translation>
        </message>
        <message>
            <source>Give the server's OpenAI API address, e.g. https://gpu-box.example:8000/v1</source>
            <translation>Give the server's OpenAI API address, e.g. https://gpu-box.example:8000/v1</translation>
        </message>
        <message>
            <source>Install the engine's extra (see the README) or choose another engine.</source>
            <translation>Install the engine's extra (see the README) or choose another engine.</translation>
        </message>
        <message>
            <source>Load a model first.</source>
            <translation>Load a model first.</translation>
        </message>
        <message>
            <source>Load a model that reads images (a vision model), or remove the images.</source>
            <translation>Load a model that reads images (a vision model), or remove the images.</translation>
        </message>
        <message>
            <source>Load the model again.</source>
            <translation>Load the model again.</translation>
        </message>
        <message>
            <source>Pick one of the models the server lists (tandem remote-models --endpoint URL).</source>
            <translation>Pick one of the models the server lists (tandem remote-models --endpoint URL).</translation>
        </message>
        <message>
            <source>See the server's log for details.</source>
            <translation>See the server's log for details.</translation>
        </message>
        <message>
            <source>Set the key in TANDEM_API_KEY or store it for this endpoint (tandem endpoint-key).</source>
            <translation>Set the key in TANDEM_API_KEY or store it for this endpoint (tandem endpoint-key).</translation>
        </message>
        <message>
            <source>Set the repeat penalty to 1 (off), or turn speculative decoding off.</source>
            <translation>Set the repeat penalty to 1 (off), or turn speculative decoding off.</translation>
        </message>
        <message>
            <source>Set the temperature to 0, or turn speculative decoding off to sample.</source>
            <translation>Set the temperature to 0, or turn speculative decoding off to sample.</translation>
        </message>
        <message>
            <source>Choose one of those, or load the model again with that speculation.</source>
            <translation>Choose one of those, or load the model again with that speculation.</translation>
        </message>
        <message>
            <source>Shorten the conversation or the message, or load the model with a larger context.</source>
            <translation>Shorten the conversation or the message, or load the model with a larger context.</translation>
        </message>
        <message>
            <source>Shorten the message, lower Max new tokens, or load the model with a larger context length.</source>
            <translation>Shorten the message, lower Max new tokens, or load the model with a larger context length.</translation>
        </message>
        <message>
            <source>Start the server, or check the host name and port of the endpoint.</source>
            <translation>Start the server, or check the host name and port of the endpoint.</translation>
        </message>
        <message>
            <source>The model stays loaded; try again, or reload it if the error repeats.</source>
            <translation>The model stays loaded; try again, or reload it if the error repeats.</translation>
        </message>
        <message>
            <source>The partial answer is kept. Check the server (it may have stopped) and try again.</source>
            <translation>The partial answer is kept. Check the server (it may have stopped) and try again.</translation>
        </message>
        <message>
            <source>The server is slow or overloaded; try again, or raise the timeout.</source>
            <translation>The server is slow or overloaded; try again, or raise the timeout.</translation>
        </message>
        <message>
            <source>The server's HTTPS certificate is not trusted here. Use a certificate from a trusted authority, or add your own CA to the system's trust store.</source>
            <translation>The server's HTTPS certificate is not trusted here. Use a certificate from a trusted authority, or add your own CA to the system's trust store.</translation>
        </message>
        <message>
            <source>Turn speculative decoding off for this model.</source>
            <translation>Turn speculative decoding off for this model.</translation>
        </message>
        <message>
            <source>Use https:// for servers on other machines, or allow plain HTTP for this endpoint (--allow-http) if it is on a network you trust.</source>
            <translation>Use https:// for servers on other machines, or allow plain HTTP for this endpoint (--allow-http) if it is on a network you trust.</translation>
        </message>
        <message>
            <source>Use suffix or prompt-lookup on MLX, choose a drafter model, run the model on llama.cpp, or turn speculative decoding off.</source>
            <translation>Use suffix or prompt-lookup on MLX, choose a drafter model, run the model on llama.cpp, or turn speculative decoding off.</translation>
        </message>
        <message>
            <source>Use the drafter declared for this model (e.g. a Gemma 4 assistant), or turn speculative decoding off.</source>
            <translation>Use the drafter declared for this model (e.g. a Gemma 4 assistant), or turn speculative decoding off.</translation>
        </message>
        <message>
            <source>Use the method 'draft' for a classic same-vocabulary drafter, or pick the model's own drafter.</source>
            <translation>Use the method 'draft' for a classic same-vocabulary drafter, or pick the model's own drafter.</translation>
        </message>
    </context>
    <context>
        <name>EngineLoader</name>
        <message>
            <source>Locating model files</source>
            <extracomment>The one name the stats strip and the status bar give an Auto launch.</extracomment>
            <translation>Locating model files</translation>
        </message>
        <message>
            <source>Connecting to {url}</source>
            <translation>Connecting to {url}</translation>
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
            <extracomment>The exception's own ``hint`` attribute (engine errors): the class that raises knows the cause. (exception type, error code or None for any, hint). Codes: ``CacheError.code`` (HubError: network / auth / not_found) and, for ``OSError``, the errno name (ENOSPC, EACCES...).</extracomment>
            <translation>Install the package named above, then restart Tandem.</translation>
        </message>
        <message>
            <source>Download the model first (Models page, or the command above), then try again.</source>
            <translation>Download the model first (Models page, or the command above), then try again.</translation>
        </message>
        <message>
            <source>Free some disk space or choose a smaller quantization, then retry.</source>
            <translation>Free some disk space or choose a smaller quantization, then retry.</translation>
        </message>
        <message>
            <source>Check the network connection and the hub endpoint in Settings, then press Retry.</source>
            <translation>Check the network connection and the hub endpoint in Settings, then press Retry.</translation>
        </message>
        <message>
            <source>The hub refused access: check the repository id, or store a token for this hub in Settings if the repository is private or gated.</source>
            <translation>The hub refused access: check the repository id, or store a token for this hub in Settings if the repository is private or gated.</translation>
        </message>
        <message>
            <source>The hub has no such repository or file (or it is private): check the model entry's repository and file names, or store a token for this hub in Settings.</source>
            <translation>The hub has no such repository or file (or it is private): check the model entry's repository and file names, or store a token for this hub in Settings.</translation>
        </message>
        <message>
            <source>Check the network and the hub settings, then press Retry.</source>
            <translation>Check the network and the hub settings, then press Retry.</translation>
        </message>
        <message>
            <source>The damaged file was removed; press Retry to download it again.</source>
            <translation>The damaged file was removed; press Retry to download it again.</translation>
        </message>
        <message>
            <source>Press Retry to start the download again.</source>
            <translation>Press Retry to start the download again.</translation>
        </message>
        <message>
            <source>The repository has no file for this quantization; the message names the ones it holds. Choose one of those, or press Refresh from hub on the Models page to list them.</source>
            <translation>The repository has no file for this quantization; the message names the ones it holds. Choose one of those, or press Refresh from hub on the Models page to list them.</translation>
        </message>
        <message>
            <source>Check the model entry; the message names the field to fix.</source>
            <translation>Check the model entry; the message names the field to fix.</translation>
        </message>
        <message>
            <source>Check the model cache in Settings, then retry.</source>
            <translation>Check the model cache in Settings, then retry.</translation>
        </message>
        <message>
            <source>Choose a complete .gguf file (a download that stopped early is incomplete: download it again) or an MLX model folder with its config.json and weights. Nothing was added.</source>
            <translation>Choose a complete .gguf file (a download that stopped early is incomplete: download it again) or an MLX model folder with its config.json and weights. Nothing was added.</translation>
        </message>
        <message>
            <source>Correct the sampling settings (temperature, top-p, top-k, max new tokens) and try again.</source>
            <translation>Correct the sampling settings (temperature, top-p, top-k, max new tokens) and try again.</translation>
        </message>
        <message>
            <source>Choose another engine or model in the launch dialog.</source>
            <translation>Choose another engine or model in the launch dialog.</translation>
        </message>
        <message>
            <source>The file is not a complete GGUF model: delete it and download it again.</source>
            <translation>The file is not a complete GGUF model: delete it and download it again.</translation>
        </message>
        <message>
            <source>Use https:// for a server on another machine, or tick Allow plain HTTP for this endpoint if it is on a network you trust.</source>
            <translation>Use https:// for a server on another machine, or tick Allow plain HTTP for this endpoint if it is on a network you trust.</translation>
        </message>
        <message>
            <source>Enter the server's OpenAI API address, e.g. https://gpu-box.example:8000/v1.</source>
            <translation>Enter the server's OpenAI API address, e.g. https://gpu-box.example:8000/v1.</translation>
        </message>
        <message>
            <source>Start the server, or check the host name and port of the endpoint.</source>
            <translation>Start the server, or check the host name and port of the endpoint.</translation>
        </message>
        <message>
            <source>The server's HTTPS certificate is not trusted here: use one from a trusted authority, or add your own CA to the system's trust store.</source>
            <translation>The server's HTTPS certificate is not trusted here: use one from a trusted authority, or add your own CA to the system's trust store.</translation>
        </message>
        <message>
            <source>Enter the server's API key on the launch dialog's Remote server tab; Tandem keeps it in the system keyring.</source>
            <translation>Enter the server's API key on the launch dialog's Remote server tab; Tandem keeps it in the system keyring.</translation>
        </message>
        <message>
            <source>Press List models on the Remote server tab and pick a model the server serves.</source>
            <translation>Press List models on the Remote server tab and pick a model the server serves.</translation>
        </message>
        <message>
            <source>The server is slow or overloaded; try again.</source>
            <translation>The server is slow or overloaded; try again.</translation>
        </message>
        <message>
            <source>The partial answer is kept. Check the server (it may have stopped), then ask again.</source>
            <translation>The partial answer is kept. Check the server (it may have stopped), then ask again.</translation>
        </message>
        <message>
            <source>See the server's log for details.</source>
            <translation>See the server's log for details.</translation>
        </message>
        <message>
            <source>Tandem may not write there: check the folder's permissions.</source>
            <translation>Tandem may not write there: check the folder's permissions.</translation>
        </message>
        <message>
            <source>A file Tandem needs is missing; the message names it.</source>
            <translation>A file Tandem needs is missing; the message names it.</translation>
        </message>
        <message>
            <source>Check free disk space and permissions, then retry.</source>
            <translation>Check free disk space and permissions, then retry.</translation>
        </message>
        <message>
            <source>Check the engine and model chosen in the launch dialog, then try again.</source>
            <translation>Check the engine and model chosen in the launch dialog, then try again.</translation>
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
        <name>FitLabel</name>
        <message>
            <source>Checking…</source>
            <translation>Checking…</translation>
        </message>
        <message>
            <source>Memory use unknown: {reason}</source>
            <translation>Memory use unknown: {reason}</translation>
        </message>
        <message>
            <source>Fits in memory ({total:.1f} of {avail:.1f} GiB available)</source>
            <translation>Fits in memory ({total:.1f} of {avail:.1f} GiB available)</translation>
        </message>
        <message>
            <source>Tight: needs {total:.1f} of {avail:.1f} GiB available</source>
            <translation>Tight: needs {total:.1f} of {avail:.1f} GiB available</translation>
        </message>
        <message>
            <source>Too large: needs {total:.1f} GiB, {avail:.1f} GiB available</source>
            <translation>Too large: needs {total:.1f} GiB, {avail:.1f} GiB available</translation>
        </message>
        <message>
            <source>Memory use unknown for this quantization</source>
            <translation>Memory use unknown for this quantization</translation>
        </message>
        <message>
            <source>The KV cache is counted once the file is downloaded (its header gives it).</source>
            <translation>The KV cache is counted once the file is downloaded (its header gives it).</translation>
        </message>
    </context>
    <context>
        <name>HubSearchPanel</name>
        <message>
            <source>Search {hub} (press Enter)</source>
            <translation>Search {hub} (press Enter)</translation>
        </message>
        <message>
            <source>Search models</source>
            <translation>Search models</translation>
        </message>
        <message>
            <source>Type what to look for, then press Enter.</source>
            <translation>Type what to look for, then press Enter.</translation>
        </message>
        <message>
            <source>Searching {hub}…</source>
            <translation>Searching {hub}…</translation>
        </message>
        <message>
            <source>Search cancelled.</source>
            <translation>Search cancelled.</translation>
        </message>
        <message>
            <source>No models match this search.</source>
            <translation>No models match this search.</translation>
        </message>
        <message>
            <source>{count} results; choose one to see its files.</source>
            <translation>{count} results; choose one to see its files.</translation>
        </message>
        <message>
            <source>Search needs the network; your registry still works.</source>
            <translation>Search needs the network; your registry still works.</translation>
        </message>
        <message>
            <source>Listing the files of {repo}…</source>
            <translation>Listing the files of {repo}…</translation>
        </message>
        <message>
            <source>Other GGUF files</source>
            <translation>Other GGUF files</translation>
        </message>
        <message>
            <source>{n} parts: {names}</source>
            <translation>{n} parts: {names}</translation>
        </message>
        <message>
            <source>{repo}: {n} files. Add it to your models to download and launch it.</source>
            <translation>{repo}: {n} files. Add it to your models to download and launch it.</translation>
        </message>
        <message>
            <source>Could not add it: {reason}</source>
            <translation>Could not add it: {reason}</translation>
        </message>
        <message>
            <source>Added {name} to your models.</source>
            <translation>Added {name} to your models.</translation>
        </message>
        <message>
            <source>Catalog</source>
            <translation>Catalog</translation>
        </message>
        <message>
            <source>My models</source>
            <translation>My models</translation>
        </message>
        <message>
            <source>Where the search field looks: the catalog, the models on this computer, or a hub</source>
            <translation>Where the search field looks: the catalog, the models on this computer, or a hub</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>Model</translation>
        </message>
        <message>
            <source>Downloads</source>
            <translation>Downloads</translation>
        </message>
        <message>
            <source>Likes</source>
            <translation>Likes</translation>
        </message>
        <message>
            <source>Updated</source>
            <translation>Updated</translation>
        </message>
        <message>
            <source>Formats</source>
            <translation>Formats</translation>
        </message>
        <message>
            <source>Quantization / file</source>
            <translation>Quantization / file</translation>
        </message>
        <message>
            <source>Size</source>
            <translation>Size</translation>
        </message>
        <message>
            <source>More results</source>
            <translation>More results</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Cancel</translation>
        </message>
        <message>
            <source>Add to my models</source>
            <translation>Add to my models</translation>
        </message>
        <message>
            <source>Import model…</source>
            <translation>Import model…</translation>
        </message>
        <message>
            <source>Add a .gguf file or an MLX folder from this computer (or drop it on the window)</source>
            <translation>Add a .gguf file or an MLX folder from this computer (or drop it on the window)</translation>
        </message>
    </context>
    <context>
        <name>ImageViewer</name>
        <message>
            <source>Image</source>
            <translation>Image</translation>
        </message>
        <message>
            <source>{w} × {h} pixels, {kb} KB</source>
            <translation>{w} × {h} pixels, {kb} KB</translation>
        </message>
    </context>
    <context>
        <name>ImportController</name>
        <message>
            <source>Import model</source>
            <translation>Import model</translation>
        </message>
        <message>
            <source>GGUF models (*.gguf)</source>
            <translation>GGUF models (*.gguf)</translation>
        </message>
        <message>
            <source>Models (*.gguf config.json)</source>
            <translation>Models (*.gguf config.json)</translation>
        </message>
        <message>
            <source>MLX model folder: its config.json (config.json)</source>
            <translation>MLX model folder: its config.json (config.json)</translation>
        </message>
        <message>
            <source>Could not import the model</source>
            <translation>Could not import the model</translation>
        </message>
    </context>
    <context>
        <name>ImportDialog</name>
        <message>
            <source>Import model</source>
            <translation>Import model</translation>
        </message>
        <message>
            <source>Compatible drafters (same vocabulary, smaller):</source>
            <translation>Compatible drafters (same vocabulary, smaller):</translation>
        </message>
        <message>
            <source>Use as drafter</source>
            <translation>Use as drafter</translation>
        </message>
        <message>
            <source>Launch…</source>
            <translation>Launch…</translation>
        </message>
        <message>
            <source>Registered {name} ({fmt}, {quant}) from {path}.</source>
            <translation>Registered {name} ({fmt}, {quant}) from {path}.</translation>
        </message>
        <message>
            <source>{name} is already in your models ({fmt}, {quant}, {path}).</source>
            <translation>{name} is already in your models ({fmt}, {quant}, {path}).</translation>
        </message>
        <message>
            <source>Looking for compatible drafters…</source>
            <translation>Looking for compatible drafters…</translation>
        </message>
        <message>
            <source>The drafter search failed: {reason}</source>
            <translation>The drafter search failed: {reason}</translation>
        </message>
        <message>
            <source>Choose a drafter to pair with it, or launch it alone.</source>
            <translation>Choose a drafter to pair with it, or launch it alone.</translation>
        </message>
        <message>
            <source>No compatible drafter found nearby; it can still run alone or with a model-free method.</source>
            <translation>No compatible drafter found nearby; it can still run alone or with a model-free method.</translation>
        </message>
        <message>
            <source>Not offered:</source>
            <translation>Not offered:</translation>
        </message>
        <message>
            <source>{drafter} is now its drafter.</source>
            <translation>{drafter} is now its drafter.</translation>
        </message>
    </context>
    <context>
        <name>LaunchCoordinator</name>
        <message>
            <source>The model could not be loaded</source>
            <extracomment>the choice of the last load started (the Auto notice reloads it)</extracomment>
            <translation>The model could not be loaded</translation>
        </message>
        <message>
            <source>Downloading; the model loads when the download finishes.</source>
            <translation>Downloading; the model loads when the download finishes.</translation>
        </message>
        <message>
            <source>The download could not be queued</source>
            <translation>The download could not be queued</translation>
        </message>
        <message>
            <source>Speculation is off for this model now.</source>
            <translation>Speculation is off for this model now.</translation>
        </message>
        <message>
            <source>The default model is not available</source>
            <translation>The default model is not available</translation>
        </message>
        <message>
            <source>{model} could not be reopened: {reason}</source>
            <translation>{model} could not be reopened: {reason}</translation>
        </message>
        <message>
            <source>Your last model was not reopened</source>
            <translation>Your last model was not reopened</translation>
        </message>
        <message>
            <source>The default model is loaded instead. Download the model again from the Models page.</source>
            <translation>The default model is loaded instead. Download the model again from the Models page.</translation>
        </message>
        <message>
            <source>the {engine} engine is not available ({reason})</source>
            <translation>the {engine} engine is not available ({reason})</translation>
        </message>
        <message>
            <source>its files are no longer on disk</source>
            <translation>its files are no longer on disk</translation>
        </message>
        <message>
            <source>its drafter's files are no longer on disk</source>
            <translation>its drafter's files are no longer on disk</translation>
        </message>
    </context>
    <context>
        <name>LaunchDialog</name>
        <message>
            <source>This engine is not available here: {reason}</source>
            <extracomment>Each note code's sentence, in the dialog's translation context (the sentences and their translations are the ones the dialog always had); parameters are filled in by ``_say``.</extracomment>
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
            <source>{path}
Compatible: {reason}</source>
            <extracomment>the one state of the form: every widget change replaces it, every widget shows it</extracomment>
            <translation>{path}
Compatible: {reason}</translation>
        </message>
        <message>
            <source>Not offered:</source>
            <translation>Not offered:</translation>
        </message>
        <message>
            <source>Runs the drafter file chosen below beside the model: it proposes several tokens per round and the model verifies them in one pass, so the answer is identical. It was found on this computer with the same vocabulary; nothing is downloaded.</source>
            <translation>Runs the drafter file chosen below beside the model: it proposes several tokens per round and the model verifies them in one pass, so the answer is identical. It was found on this computer with the same vocabulary; nothing is downloaded.</translation>
        </message>
        <message>
            <source>The drafter ({quant}) is not downloaded, so Auto measures without it. Download it from the Models page to let Auto try it.</source>
            <translation>The drafter ({quant}) is not downloaded, so Auto measures without it. Download it from the Models page to let Auto try it.</translation>
        </message>
        <message>
            <source>Looking for a compatible drafter on this computer…</source>
            <translation>Looking for a compatible drafter on this computer…</translation>
        </message>
        <message>
            <source>No compatible drafter found on this computer. Download a smaller model of the same family (same vocabulary) to draft for it, or use a model-free method.</source>
            <translation>No compatible drafter found on this computer. Download a smaller model of the same family (same vocabulary) to draft for it, or use a model-free method.</translation>
        </message>
        <message>
            <source>The drafter search failed: {detail}</source>
            <translation>The drafter search failed: {detail}</translation>
        </message>
        <message>
            <source>This model reads images with its projector (mmproj), which is not downloaded: this launch reads text only. Download the model again from the Models page to fetch it.</source>
            <translation>This model reads images with its projector (mmproj), which is not downloaded: this launch reads text only. Download the model again from the Models page to fetch it.</translation>
        </message>
        <message>
            <source>{method} cannot run with pictures on this llama.cpp: this launch reads text only. Choose another speculation method to send pictures.</source>
            <translation>{method} cannot run with pictures on this llama.cpp: this launch reads text only. Choose another speculation method to send pictures.</translation>
        </message>
        <message>
            <source>Max new tokens ({max}) must be less than the context length ({ctx}): the conversation needs room in the context too.</source>
            <translation>Max new tokens ({max}) must be less than the context length ({ctx}): the conversation needs room in the context too.</translation>
        </message>
        <message>
            <source>These sampling values cannot be used: {detail}</source>
            <extracomment>A note code without a sentence of its own: a sampling value the form refused.</extracomment>
            <translation>These sampling values cannot be used: {detail}</translation>
        </message>
        <message>
            <source>Reads images: its vision tower is part of the model.</source>
            <translation>Reads images: its vision tower is part of the model.</translation>
        </message>
        <message>
            <source>Reads images with its projector. With pictures, speculation runs with {methods}; not with {refused}.</source>
            <translation>Reads images with its projector. With pictures, speculation runs with {methods}; not with {refused}.</translation>
        </message>
        <message>
            <source>Reads images with its projector; speculation runs with pictures too.</source>
            <translation>Reads images with its projector; speculation runs with pictures too.</translation>
        </message>
        <message>
            <source>{engine} computes on the GPU (Metal), so it does not use a CPU thread count; this field does not apply.</source>
            <translation>{engine} computes on the GPU (Metal), so it does not use a CPU thread count; this field does not apply.</translation>
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
            <source>Suffix decoding: drafts from your earlier questions and answers (kept on this computer), so a regenerated or similar answer comes out many tokens per round; the model still checks every token, so the answer is the same. Settings &gt; Forget learned text deletes what it learned; deleting a conversation deletes what that conversation taught.</source>
            <translation>Suffix decoding: drafts from your earlier questions and answers (kept on this computer), so a regenerated or similar answer comes out many tokens per round; the model still checks every token, so the answer is the same. Settings &gt; Forget learned text deletes what it learned; deleting a conversation deletes what that conversation taught.</translation>
        </message>
        <message>
            <source>Prompt lookup: drafts by copying from this request's own text (the conversation so far), nothing is kept between requests. It helps when the answer repeats the question, such as editing code.</source>
            <translation>Prompt lookup: drafts by copying from this request's own text (the conversation so far), nothing is kept between requests. It helps when the answer repeats the question, such as editing code.</translation>
        </message>
        <message>
            <source>Suffix decoding</source>
            <translation>Suffix decoding</translation>
        </message>
        <message>
            <source>Prompt lookup</source>
            <translation>Prompt lookup</translation>
        </message>
        <message>
            <source>engine default: {value}</source>
            <translation>engine default: {value}</translation>
        </message>
        <message>
            <source>This conversation has pictures, and this model reads text only: a message with a picture cannot go to it. Choose a model that reads images, or start a new conversation.</source>
            <extracomment>What the launch dialog says when the conversation that launches has pictures this launch cannot read (``CHAT_IMAGES_UNREADABLE``), by the note's ``why``.</extracomment>
            <translation>This conversation has pictures, and this model reads text only: a message with a picture cannot go to it. Choose a model that reads images, or start a new conversation.</translation>
        </message>
        <message>
            <source>This conversation has pictures, but this launch reads text only: the model's image projector (mmproj) is not downloaded. Download the model again from the Models page.</source>
            <translation>This conversation has pictures, but this launch reads text only: the model's image projector (mmproj) is not downloaded. Download the model again from the Models page.</translation>
        </message>
        <message>
            <source>This conversation has pictures, but {method} cannot run with pictures here: this launch reads text only. Choose another speculation method to send them.</source>
            <translation>This conversation has pictures, but {method} cannot run with pictures here: this launch reads text only. Choose another speculation method to send them.</translation>
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
            <source>On MLX suffix decoding and prompt lookup this is the longest draft in a round; a round drafts fewer when the learned text is less sure.</source>
            <translation>On MLX suffix decoding and prompt lookup this is the longest draft in a round; a round drafts fewer when the learned text is less sure.</translation>
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
            <source>not offered by this engine</source>
            <translation>not offered by this engine</translation>
        </message>
        <message>
            <source>Tandem's longest draft for this method</source>
            <translation>Tandem's longest draft for this method</translation>
        </message>
        <message>
            <source>Tandem's longest draft; each round's depth follows the measured acceptance</source>
            <translation>Tandem's longest draft; each round's depth follows the measured acceptance</translation>
        </message>
        <message>
            <source>llama.cpp's own default</source>
            <translation>llama.cpp's own default</translation>
        </message>
        <message>
            <source>Drafts with the model's own multi-token prediction (MTP) heads: they propose several tokens per round and the model verifies them in one pass, so the answer is identical. The heads are part of the model's file; nothing is downloaded.</source>
            <translation>Drafts with the model's own multi-token prediction (MTP) heads: they propose several tokens per round and the model verifies them in one pass, so the answer is identical. The heads are part of the model's file; nothing is downloaded.</translation>
        </message>
        <message>
            <source>Runs a small drafter beside the model. The drafter proposes several tokens per round and the model verifies them in one pass: the answer is identical, decoding is faster.</source>
            <translation>Runs a small drafter beside the model. The drafter proposes several tokens per round and the model verifies them in one pass: the answer is identical, decoding is faster.</translation>
        </message>
        <message>
            <source>The drafter ({quant}) is already on this computer; nothing is downloaded.</source>
            <translation>The drafter ({quant}) is already on this computer; nothing is downloaded.</translation>
        </message>
        <message>
            <source>The drafter ({quant}) is not on this computer yet: launching with it on downloads it first.</source>
            <translation>The drafter ({quant}) is not on this computer yet: launching with it on downloads it first.</translation>
        </message>
        <message>
            <source>Auto is off: this launch answers without speculation. Turn Auto on to let Tandem choose, or choose a drafter or a model-free method below.</source>
            <translation>Auto is off: this launch answers without speculation. Turn Auto on to let Tandem choose, or choose a drafter or a model-free method below.</translation>
        </message>
        <message>
            <source>the model's own MTP heads</source>
            <translation>the model's own MTP heads</translation>
        </message>
        <message>
            <source>the MTP assistant</source>
            <translation>the MTP assistant</translation>
        </message>
        <message>
            <source>the drafter model ({method})</source>
            <translation>the drafter model ({method})</translation>
        </message>
        <message>
            <source>the drafter model</source>
            <translation>the drafter model</translation>
        </message>
        <message>
            <source>This launch drafts with {what}, as many tokens per round as the engine's default.</source>
            <translation>This launch drafts with {what}, as many tokens per round as the engine's default.</translation>
        </message>
        <message>
            <source>This launch drafts with {what}, up to {depth} tokens per round.</source>
            <translation>This launch drafts with {what}, up to {depth} tokens per round.</translation>
        </message>
        <message>
            <source>Auto is off.</source>
            <translation>Auto is off.</translation>
        </message>
        <message>
            <source>Auto is off while the drafter is on: turn the drafter off to go back to Auto.</source>
            <translation>Auto is off while the drafter is on: turn the drafter off to go back to Auto.</translation>
        </message>
        <message>
            <source>Auto is off while a model-free method is chosen: choose Off there to go back to Auto.</source>
            <translation>Auto is off while a model-free method is chosen: choose Off there to go back to Auto.</translation>
        </message>
        <message>
            <source>the model card</source>
            <translation>the model card</translation>
        </message>
        <message>
            <source>Starts at {value}, recommended by the model card ({source}).</source>
            <translation>Starts at {value}, recommended by the model card ({source}).</translation>
        </message>
        <message>
            <source>Starts at {value}, Tandem's default (Settings).</source>
            <translation>Starts at {value}, Tandem's default (Settings).</translation>
        </message>
        <message>
            <source>Launch {name}</source>
            <translation>Launch {name}</translation>
        </message>
        <message>
            <source>This computer</source>
            <translation>This computer</translation>
        </message>
        <message>
            <source>Remote server</source>
            <translation>Remote server</translation>
        </message>
        <message>
            <source>Chat through your own vLLM, SGLang or llama-server (an OpenAI-compatible API).</source>
            <translation>Chat through your own vLLM, SGLang or llama-server (an OpenAI-compatible API).</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>Model</translation>
        </message>
        <message>
            <source>Speculation</source>
            <translation>Speculation</translation>
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
            <source>Memory</source>
            <translation>Memory</translation>
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
            <source>Drafter</source>
            <translation>Drafter</translation>
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
            <source>CPU threads the engine computes with.</source>
            <translation>CPU threads the engine computes with.</translation>
        </message>
        <message>
            <source>{n} threads, as typed. Automatic would start with {auto}: the cores that do math on this computer.</source>
            <translation>{n} threads, as typed. Automatic would start with {auto}: the cores that do math on this computer.</translation>
        </message>
        <message>
            <source>Automatic: {n} threads, one per performance core ({n} of {cpus} CPUs), as llama.cpp counts them.</source>
            <translation>Automatic: {n} threads, one per performance core ({n} of {cpus} CPUs), as llama.cpp counts them.</translation>
        </message>
        <message>
            <source>Automatic: {n} threads, one per physical core ({cpus} CPUs with hyper-threading), as llama.cpp counts them.</source>
            <translation>Automatic: {n} threads, one per physical core ({cpus} CPUs with hyper-threading), as llama.cpp counts them.</translation>
        </message>
        <message>
            <source>Automatic: {n} threads, one per core, as llama.cpp counts them.</source>
            <translation>Automatic: {n} threads, one per core, as llama.cpp counts them.</translation>
        </message>
        <message>
            <source>Fewer when other programs keep cores busy or another model computes at the same time: each model starts with the cores that are free then, and an idle model follows them.</source>
            <translation>Fewer when other programs keep cores busy or another model computes at the same time: each model starts with the cores that are free then, and an idle model follows them.</translation>
        </message>
        <message>
            <source>Automatic: the context the model was trained for, as far as the memory estimate allows (at least 4,096 tokens). Coding agents need 8,192 tokens or more.</source>
            <translation>Automatic: the context the model was trained for, as far as the memory estimate allows (at least 4,096 tokens). Coding agents need 8,192 tokens or more.</translation>
        </message>
        <message>
            <source>Automatic: {n} threads</source>
            <translation>Automatic: {n} threads</translation>
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
            <source>Repeat penalty</source>
            <translation>Repeat penalty</translation>
        </message>
        <message>
            <source>Higher gives more varied answers; 0 always picks the most likely token.</source>
            <translation>Higher gives more varied answers; 0 always picks the most likely token.</translation>
        </message>
        <message>
            <source>Samples only from the most likely tokens that together reach this probability.</source>
            <translation>Samples only from the most likely tokens that together reach this probability.</translation>
        </message>
        <message>
            <source>Samples only from this many most likely tokens; 0 is off.</source>
            <translation>Samples only from this many most likely tokens; 0 is off.</translation>
        </message>
        <message>
            <source>Above 1 makes repeating recent text less likely; 1 is off.</source>
            <translation>Above 1 makes repeating recent text less likely; 1 is off.</translation>
        </message>
        <message>
            <source>The longest answer, in tokens. Starts at {value}, Tandem's default (Settings).</source>
            <translation>The longest answer, in tokens. Starts at {value}, Tandem's default (Settings).</translation>
        </message>
        <message>
            <source>Launch</source>
            <translation>Launch</translation>
        </message>
    </context>
    <context>
        <name>LoadBar</name>
        <message>
            <source>Cancel</source>
            <translation>Cancel</translation>
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
            <extracomment>the column's width (px)</extracomment>
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
            <source>Each conversation's speculation runs in a configuration of the loaded model, started on first use beside it and stopped when idle; the weights are shared, each configuration adds its own cache.</source>
            <translation>Each conversation's speculation runs in a configuration of the loaded model, started on first use beside it and stopped when idle; the weights are shared, each configuration adds its own cache.</translation>
        </message>
        <message>
            <source>Loading {name}…</source>
            <translation>Loading {name}…</translation>
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
            <source>Eject</source>
            <extracomment>how often the memory, the threads and the pool are read again (ms) the loaded model's engine pool: the configurations running now the loaded models, their memory and an Unload each (a menu)</extracomment>
            <translation>Eject</translation>
        </message>
        <message>
            <source>Unload the model and free the memory it holds</source>
            <translation>Unload the model and free the memory it holds</translation>
        </message>
        <message>
            <source>as set in the launch dialog</source>
            <translation>as set in the launch dialog</translation>
        </message>
        <message>
            <source>one per core that does math ({n}), all free</source>
            <translation>one per core that does math ({n}), all free</translation>
        </message>
        <message>
            <source>other programs keep {busy} of the {n} cores that do math busy</source>
            <translation>other programs keep {busy} of the {n} cores that do math busy</translation>
        </message>
        <message>
            <source>other models hold {shared} of the {n} cores that do math</source>
            <translation>other models hold {shared} of the {n} cores that do math</translation>
        </message>
        <message>
            <source>every core that does math is taken, so the fewest</source>
            <translation>every core that does math is taken, so the fewest</translation>
        </message>
        <message>
            <source>Auto's measurement found that more threads do not pay here</source>
            <translation>Auto's measurement found that more threads do not pay here</translation>
        </message>
        <message>
            <source>CPU threads of the model's llama.cpp processes:</source>
            <translation>CPU threads of the model's llama.cpp processes:</translation>
        </message>
        <message>
            <source>the model</source>
            <translation>the model</translation>
        </message>
        <message>
            <source>{configuration}: {n} threads</source>
            <translation>{configuration}: {n} threads</translation>
        </message>
        <message>
            <source>A model at rest follows the free cores; a thread count set in the launch dialog wins.</source>
            <translation>A model at rest follows the free cores; a thread count set in the launch dialog wins.</translation>
        </message>
        <message>
            <source>This conversation's choice, beside its title; the model was loaded with {launch}</source>
            <translation>This conversation's choice, beside its title; the model was loaded with {launch}</translation>
        </message>
        <message>
            <source>no speculation</source>
            <translation>no speculation</translation>
        </message>
        <message>
            <source>Models: {n} ({memory})</source>
            <translation>Models: {n} ({memory})</translation>
        </message>
        <message>
            <source>Loaded models: {memory} of the {budget} they may take together. A model used before stays loaded while it fits; the least recently used one goes first.</source>
            <translation>Loaded models: {memory} of the {budget} they may take together. A model used before stays loaded while it fits; the least recently used one goes first.</translation>
        </message>
        <message>
            <source>Unload {model} ({memory})</source>
            <translation>Unload {model} ({memory})</translation>
        </message>
        <message>
            <source>(answers now)</source>
            <translation>(answers now)</translation>
        </message>
        <message>
            <source>It is answering; unload it after.</source>
            <translation>It is answering; unload it after.</translation>
        </message>
        <message>
            <source>Also running: {configurations} (+{memory})</source>
            <translation>Also running: {configurations} (+{memory})</translation>
        </message>
        <message>
            <source>{configuration}: {tps} tok/s (answers: {requests})</source>
            <translation>{configuration}: {tps} tok/s (answers: {requests})</translation>
        </message>
        <message>
            <source>Model unloaded; its memory is freed.</source>
            <translation>Model unloaded; its memory is freed.</translation>
        </message>
        <message>
            <source>Loading cancelled</source>
            <translation>Loading cancelled</translation>
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
            <source>Settings could not be saved</source>
            <translation>Settings could not be saved</translation>
        </message>
        <message>
            <source>Quit Tandem?</source>
            <extracomment>the question Quit asks while an answer is being written (None when not open)</extracomment>
            <translation>Quit Tandem?</translation>
        </message>
        <message>
            <source>An answer is still being written. Quitting stops it.</source>
            <translation>An answer is still being written. Quitting stops it.</translation>
        </message>
        <message>
            <source>Quit</source>
            <translation>Quit</translation>
        </message>
    </context>
    <context>
        <name>MessageBubble</name>
        <message>
            <source>Tool call</source>
            <translation>Tool call</translation>
        </message>
        <message>
            <source>Writing the answer…</source>
            <translation>Writing the answer…</translation>
        </message>
        <message>
            <source>Stopped before the first word.</source>
            <translation>Stopped before the first word.</translation>
        </message>
        <message>
            <source>Interrupted before the first word.</source>
            <translation>Interrupted before the first word.</translation>
        </message>
        <message>
            <source>Failed before the first word.</source>
            <translation>Failed before the first word.</translation>
        </message>
        <message>
            <source>The model gave an empty answer.</source>
            <translation>The model gave an empty answer.</translation>
        </message>
        <message>
            <source>You</source>
            <translation>You</translation>
        </message>
        <message>
            <source>Assistant</source>
            <translation>Assistant</translation>
        </message>
        <message>
            <source>Tool result</source>
            <translation>Tool result</translation>
        </message>
        <message>
            <source>Result of {name}</source>
            <translation>Result of {name}</translation>
        </message>
        <message>
            <source>Show or hide what the tool returned</source>
            <translation>Show or hide what the tool returned</translation>
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
            <source>interrupted</source>
            <translation>interrupted</translation>
        </message>
        <message>
            <source>Tandem was closed while this answer was being written; the text saved so far is shown. Regenerate writes it again.</source>
            <translation>Tandem was closed while this answer was being written; the text saved so far is shown. Regenerate writes it again.</translation>
        </message>
        <message>
            <source>Earlier turns were left out to fit the model's context.</source>
            <translation>Earlier turns were left out to fit the model's context.</translation>
        </message>
        <message>
            <source>Messages not sent to the model: {count}. Only the newest turns fit.</source>
            <translation>Messages not sent to the model: {count}. Only the newest turns fit.</translation>
        </message>
        <message>
            <source>Copy</source>
            <extracomment>a streamed answer's finished blocks go into frozen labels of about this many characters each, so appending a block lays out one bounded label, never the whole answer a streamed answer longer than this keeps its frozen labels when it ends (rendering a long answer again as one text holds the window at its end); shorter ones end as one text, as a loaded answer shows the colours and labels of the last render: a new palette or language renders again earlier messages left out of this answer's prompt to fit the context (0: none) the loaded family's ``tool_parser`` (tool calls shown as blocks) an answer's tool calls, one block each, under its text a ``tool`` message: the tool whose result it is what an answer not written yet is doing ("Reading the documents…"); "" for the usual note the message's images, above its text; click one to enlarge it a user message's documents, as chips under its images; click one to open it an answer's sources: the documents and passages it was given</extracomment>
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
        <name>ModelChoice</name>
        <message>
            <source>Loaded model ({name})</source>
            <extracomment>the mark of a loaded model in the list</extracomment>
            <translation>Loaded model ({name})</translation>
        </message>
        <message>
            <source>Loaded model</source>
            <translation>Loaded model</translation>
        </message>
        <message>
            <source>Answer with whatever model is loaded</source>
            <translation>Answer with whatever model is loaded</translation>
        </message>
        <message>
            <source>Loaded: answers at once</source>
            <translation>Loaded: answers at once</translation>
        </message>
        <message>
            <source>On disk: the next message loads it</source>
            <translation>On disk: the next message loads it</translation>
        </message>
        <message>
            <source>No longer on disk: download it again from the Models page</source>
            <translation>No longer on disk: download it again from the Models page</translation>
        </message>
        <message>
            <source>Model:</source>
            <translation>Model:</translation>
        </message>
        <message>
            <source>The model this conversation answers with. Another model loads with your next message; the one used before stays loaded while memory allows.</source>
            <translation>The model this conversation answers with. Another model loads with your next message; the one used before stays loaded while memory allows.</translation>
        </message>
    </context>
    <context>
        <name>ModelFilesController</name>
        <message>
            <source>The repository could not be listed</source>
            <translation>The repository could not be listed</translation>
        </message>
        <message>
            <source>Listing the repository…</source>
            <translation>Listing the repository…</translation>
        </message>
        <message>
            <source>{repo} holds {n} quantizations.</source>
            <translation>{repo} holds {n} quantizations.</translation>
        </message>
        <message>
            <source>Added: {quants}.</source>
            <translation>Added: {quants}.</translation>
        </message>
        <message>
            <source>Not in the repository: {quants}.</source>
            <translation>Not in the repository: {quants}.</translation>
        </message>
        <message>
            <source>none</source>
            <translation>none</translation>
        </message>
        <message>
            <source>Drafter quantizations: {quants}.</source>
            <translation>Drafter quantizations: {quants}.</translation>
        </message>
        <message>
            <source>The files could not be deleted</source>
            <translation>The files could not be deleted</translation>
        </message>
        <message>
            <source>Removed {model} from Tandem with its unfinished download ({size}).</source>
            <translation>Removed {model} from Tandem with its unfinished download ({size}).</translation>
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
    </context>
    <context>
        <name>RegistryModel</name>
        <message>
            <source>Downloaded</source>
            <extracomment>The roles the spec tree answers; a repaint asks every cell for a dozen roles (font, background, check state...), so the others return before any work (browser case). The family table stores exactly its roles in Qt items. "disk": what the family's files use, measured for the "My models" scope only</extracomment>
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
            <source>Checking…</source>
            <translation>Checking…</translation>
        </message>
        <message>
            <source>unverified</source>
            <translation>unverified</translation>
        </message>
        <message>
            <source>{hub}: unverified. No stored public page confirms {repo} and its file names; the download checks the repository's own listing and says what it finds.</source>
            <translation>{hub}: unverified. No stored public page confirms {repo} and its file names; the download checks the repository's own listing and says what it finds.</translation>
        </message>
        <message>
            <source>{hub}: checked on {date} against {url}</source>
            <translation>{hub}: checked on {date} against {url}</translation>
        </message>
        <message>
            <source>Mixture of experts: {active}B of {total}B parameters run per token. A drafter often slows MoE models down: verifying several drafted tokens wakes more experts than generating one.</source>
            <translation>Mixture of experts: {active}B of {total}B parameters run per token. A drafter often slows MoE models down: verifying several drafted tokens wakes more experts than generating one.</translation>
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
            <source>On disk</source>
            <translation>On disk</translation>
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
            <source>Measuring the disk its files use…</source>
            <translation>Measuring the disk its files use…</translation>
        </message>
        <message>
            <source>invalid</source>
            <translation>invalid</translation>
        </message>
        <message>
            <source>Variant</source>
            <extracomment>the memory verdicts of the shown family, computed off the GUI thread (None: no column) the recommendations of the last verdict batch asked for (kept with the batch itself)</extracomment>
            <translation>Variant</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>Status</translation>
        </message>
        <message>
            <source>Memory</source>
            <translation>Memory</translation>
        </message>
        <message>
            <source>Will it fit in this machine's free memory at the context length of the settings? ★ marks the largest quantization that fits.</source>
            <translation>Will it fit in this machine's free memory at the context length of the settings? ★ marks the largest quantization that fits.</translation>
        </message>
        <message>
            <source>A small model that proposes tokens for this one to verify; used by speculative decoding.</source>
            <translation>A small model that proposes tokens for this one to verify; used by speculative decoding.</translation>
        </message>
        <message>
            <source>The vision projector (mmproj) that lets this model read images; it is downloaded with the model and deleted with it.</source>
            <translation>The vision projector (mmproj) that lets this model read images; it is downloaded with the model and deleted with it.</translation>
        </message>
        <message>
            <source>with drafter</source>
            <translation>with drafter</translation>
        </message>
        <message>
            <source>built-in MTP</source>
            <translation>built-in MTP</translation>
        </message>
        <message>
            <source>Drafter quantizations</source>
            <translation>Drafter quantizations</translation>
        </message>
        <message>
            <source>Image projector (mmproj)</source>
            <translation>Image projector (mmproj)</translation>
        </message>
        <message>
            <source>Model quantizations</source>
            <translation>Model quantizations</translation>
        </message>
        <message>
            <source>default</source>
            <translation>default</translation>
        </message>
        <message>
            <source>Memory use unknown: {reason}</source>
            <translation>Memory use unknown: {reason}</translation>
        </message>
        <message>
            <source>Estimating the memory it needs…</source>
            <translation>Estimating the memory it needs…</translation>
        </message>
        <message>
            <source>The disk its files use: every downloaded quantization, its drafters and its image projector. A file several models share is counted once.</source>
            <translation>The disk its files use: every downloaded quantization, its drafters and its image projector. A file several models share is counted once.</translation>
        </message>
        <message>
            <source>{size} on disk</source>
            <translation>{size} on disk</translation>
        </message>
        <message>
            <source>({size} of it in unfinished downloads)</source>
            <translation>({size} of it in unfinished downloads)</translation>
        </message>
        <message>
            <source>Fits</source>
            <translation>Fits</translation>
        </message>
        <message>
            <source>Tight</source>
            <translation>Tight</translation>
        </message>
        <message>
            <source>Too large</source>
            <translation>Too large</translation>
        </message>
        <message>
            <source>Unknown</source>
            <translation>Unknown</translation>
        </message>
        <message>
            <source>unknown</source>
            <translation>unknown</translation>
        </message>
        <message>
            <source>{size} (estimated from the parameter count)</source>
            <translation>{size} (estimated from the parameter count)</translation>
        </message>
        <message>
            <source>{size} (from the hub listing)</source>
            <translation>{size} (from the hub listing)</translation>
        </message>
        <message>
            <source>{size} (as the hub listed it when the catalog entry was checked)</source>
            <translation>{size} (as the hub listed it when the catalog entry was checked)</translation>
        </message>
        <message>
            <source>unknown until a file is downloaded (its header gives it)</source>
            <translation>unknown until a file is downloaded (its header gives it)</translation>
        </message>
        <message>
            <source>unknown until it is listed or downloaded</source>
            <translation>unknown until it is listed or downloaded</translation>
        </message>
        <message>
            <source>{verdict} at {ctx} tokens</source>
            <translation>{verdict} at {ctx} tokens</translation>
        </message>
        <message>
            <source>Weights: {size}</source>
            <translation>Weights: {size}</translation>
        </message>
        <message>
            <source>KV cache: {size}</source>
            <translation>KV cache: {size}</translation>
        </message>
        <message>
            <source>Drafter: {size}</source>
            <translation>Drafter: {size}</translation>
        </message>
        <message>
            <source>Overhead: {size}</source>
            <translation>Overhead: {size}</translation>
        </message>
        <message>
            <source>Total: {size}</source>
            <translation>Total: {size}</translation>
        </message>
        <message>
            <source>Available now: {size}</source>
            <translation>Available now: {size}</translation>
        </message>
        <message>
            <source>★ The largest quantization that fits</source>
            <translation>★ The largest quantization that fits</translation>
        </message>
    </context>
    <context>
        <name>RemoteTab</name>
        <message>
            <source>Stored in the system keyring for this endpoint when the server answers.</source>
            <extracomment>(server engine, label) offered for the serve command None: no key was typed; True: stored in the keyring; False: the keyring did not keep it</extracomment>
            <translation>Stored in the system keyring for this endpoint when the server answers.</translation>
        </message>
        <message>
            <source>A key is stored in the keyring for this endpoint; leave the field empty to use it.</source>
            <translation>A key is stored in the keyring for this endpoint; leave the field empty to use it.</translation>
        </message>
        <message>
            <source>Asking {url} for its models…</source>
            <translation>Asking {url} for its models…</translation>
        </message>
        <message>
            <source>{n} model(s) on this server ({kind}).</source>
            <translation>{n} model(s) on this server ({kind}).</translation>
        </message>
        <message>
            <source>The system keyring did not keep the key: Tandem uses it for this launch only.</source>
            <translation>The system keyring did not keep the key: Tandem uses it for this launch only.</translation>
        </message>
        <message>
            <source>The server's models could not be listed</source>
            <translation>The server's models could not be listed</translation>
        </message>
        <message>
            <source>OpenAI-compatible</source>
            <translation>OpenAI-compatible</translation>
        </message>
        <message>
            <source>The statistics strip shows the rounds and acceptance this server reports (when it runs with a drafter).</source>
            <translation>The statistics strip shows the rounds and acceptance this server reports (when it runs with a drafter).</translation>
        </message>
        <message>
            <source>This server does not report acceptance: the statistics strip shows its speed only.</source>
            <translation>This server does not report acceptance: the statistics strip shows its speed only.</translation>
        </message>
        <message>
            <source>The server's own launch settings decide speculation. The statistics strip shows the rounds and acceptance where the server reports them (llama.cpp timings, vLLM and SGLang metrics).</source>
            <translation>The server's own launch settings decide speculation. The statistics strip shows the rounds and acceptance where the server reports them (llama.cpp timings, vLLM and SGLang metrics).</translation>
        </message>
        <message>
            <source>The baseline must be another server: the same model without a drafter.</source>
            <translation>The baseline must be another server: the same model without a drafter.</translation>
        </message>
        <message>
            <source>Verify needs a second server of the same model without a drafter: start the command below without its drafter options, on another port, and enter its address here.</source>
            <translation>Verify needs a second server of the same model without a drafter: start the command below without its drafter options, on another port, and enter its address here.</translation>
        </message>
        <message>
            <source>No {engine} command for this model: {reason}</source>
            <translation>No {engine} command for this model: {reason}</translation>
        </message>
        <message>
            <source>Copied to the clipboard.</source>
            <translation>Copied to the clipboard.</translation>
        </message>
        <message>
            <source>Plain HTTP to {host} would send the key and your chats unencrypted: use https://, or tick Allow plain HTTP if this network is yours.</source>
            <translation>Plain HTTP to {host} would send the key and your chats unencrypted: use https://, or tick Allow plain HTTP if this network is yours.</translation>
        </message>
        <message>
            <source>Not a server address Tandem connects to: {detail}</source>
            <translation>Not a server address Tandem connects to: {detail}</translation>
        </message>
        <message>
            <source>Server</source>
            <translation>Server</translation>
        </message>
        <message>
            <source>Endpoint</source>
            <translation>Endpoint</translation>
        </message>
        <message>
            <source>The OpenAI API address of your own server (vLLM, SGLang, llama-server or any OpenAI-compatible one). HTTPS is required for other machines.</source>
            <translation>The OpenAI API address of your own server (vLLM, SGLang, llama-server or any OpenAI-compatible one). HTTPS is required for other machines.</translation>
        </message>
        <message>
            <source>Allow plain HTTP for this endpoint</source>
            <translation>Allow plain HTTP for this endpoint</translation>
        </message>
        <message>
            <source>API key</source>
            <translation>API key</translation>
        </message>
        <message>
            <source>Leave empty if the server needs none</source>
            <translation>Leave empty if the server needs none</translation>
        </message>
        <message>
            <source>Kept in the system keyring for this endpoint only, never in Tandem's settings.</source>
            <translation>Kept in the system keyring for this endpoint only, never in Tandem's settings.</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>Model</translation>
        </message>
        <message>
            <source>The server's only model</source>
            <translation>The server's only model</translation>
        </message>
        <message>
            <source>List models</source>
            <translation>List models</translation>
        </message>
        <message>
            <source>Ask the server which models it serves</source>
            <translation>Ask the server which models it serves</translation>
        </message>
        <message>
            <source>Start a server for {model}</source>
            <translation>Start a server for {model}</translation>
        </message>
        <message>
            <source>The command that starts the server with this model's drafter, translated from Tandem's model entry (the same as `tandem serve-command`).</source>
            <translation>The command that starts the server with this model's drafter, translated from Tandem's model entry (the same as `tandem serve-command`).</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>Copy</translation>
        </message>
        <message>
            <source>Check the drafter</source>
            <translation>Check the drafter</translation>
        </message>
        <message>
            <source>Baseline endpoint (no drafter)</source>
            <translation>Baseline endpoint (no drafter)</translation>
        </message>
        <message>
            <source>A second server of the same model without a drafter. Verify compares the greedy answers of both: speculative decoding must not change them. Its key is the one stored for it in the keyring, else the endpoint's key when both run on the same machine.</source>
            <translation>A second server of the same model without a drafter. Verify compares the greedy answers of both: speculative decoding must not change them. Its key is the one stored for it in the keyring, else the endpoint's key when both run on the same machine.</translation>
        </message>
        <message>
            <source>Verify output…</source>
            <translation>Verify output…</translation>
        </message>
        <message>
            <source>Compare greedy answers to a few built-in prompts (prose, code, Chinese, a list, arithmetic) from this endpoint and from the baseline, token by token where the servers give ids</source>
            <translation>Compare greedy answers to a few built-in prompts (prose, code, Chinese, a list, arithmetic) from this endpoint and from the baseline, token by token where the servers give ids</translation>
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
        <name>ServerController</name>
        <message>
            <source>Starting the local server</source>
            <extracomment>the start / stop operations, one after the other servers started on an operation thread and not stopped yet; shutdown() stops them all, also one whose start finishes after the window closed (its coroutine is cancelled then) a start or stop is under way the served model's context in tokens (0 when unknown), read when the server starts the engine pool of the served model (llama.cpp): the window's (the engine host's), which closes it with the model the window's loaded models and the models on disk, served by id (None: the loaded model answers every request)</extracomment>
            <translation>Starting the local server</translation>
        </message>
        <message>
            <source>Stopping the local server</source>
            <translation>Stopping the local server</translation>
        </message>
    </context>
    <context>
        <name>ServerLog</name>
        <message>
            <source>refused: prompt {prompt} tok &gt; context {context} tok</source>
            <translation>refused: prompt {prompt} tok &gt; context {context} tok</translation>
        </message>
        <message>
            <source>ok</source>
            <translation>ok</translation>
        </message>
        <message>
            <source>cancelled</source>
            <translation>cancelled</translation>
        </message>
        <message>
            <source>error</source>
            <translation>error</translation>
        </message>
        <message>
            <source>stream</source>
            <translation>stream</translation>
        </message>
        <message>
            <source>single</source>
            <translation>single</translation>
        </message>
        <message>
            <source>{status} {kind}: {prompt}+{completion} tok, {tps} tok/s, drafted {drafted} accepted {accepted} ({rate}), {rounds} rounds, {mean} tok/round</source>
            <translation>{status} {kind}: {prompt}+{completion} tok, {tps} tok/s, drafted {drafted} accepted {accepted} ({rate}), {rounds} rounds, {mean} tok/round</translation>
        </message>
        <message>
            <source>, {n} tool calls</source>
            <translation>, {n} tool calls</translation>
        </message>
    </context>
    <context>
        <name>ServerPanel</name>
        <message>
            <source>Local server</source>
            <extracomment>the panel opens about this many average characters wide (its texts wrap at that width) the request log shows at least this many lines the request log opens this many lines tall (more requests scroll inside it) the served context, and what to do when an agent's request did not fit in it (prompt tokens, context) of the last request refused because it did not fit the configurations running for per-request speculation, and what each served stops serving (the status bar's switch opens this panel while the server runs)</extracomment>
            <translation>Local server</translation>
        </message>
        <message>
            <source>OpenAI- and Anthropic-compatible API of the loaded model</source>
            <translation>OpenAI- and Anthropic-compatible API of the loaded model</translation>
        </message>
        <message>
            <source>API key (send as 'Authorization: Bearer &lt;key&gt;' or 'x-api-key: &lt;key&gt;'):</source>
            <translation>API key (send as 'Authorization: Bearer &lt;key&gt;' or 'x-api-key: &lt;key&gt;'):</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>Copy</translation>
        </message>
        <message>
            <source>Allow other machines to connect</source>
            <translation>Allow other machines to connect</translation>
        </message>
        <message>
            <source>Served requests</source>
            <translation>Served requests</translation>
        </message>
        <message>
            <source>Use with an agent</source>
            <translation>Use with an agent</translation>
        </message>
        <message>
            <source>Paste these settings into the terminal that starts the agent: Claude Code uses the Anthropic lines, OpenAI clients the OpenAI lines. Copy fills in the key.</source>
            <translation>Paste these settings into the terminal that starts the agent: Claude Code uses the Anthropic lines, OpenAI clients the OpenAI lines. Copy fills in the key.</translation>
        </message>
        <message>
            <source>Copy settings</source>
            <translation>Copy settings</translation>
        </message>
        <message>
            <source>Stop server</source>
            <translation>Stop server</translation>
        </message>
        <message>
            <source>Stop serving the loaded model; the model stays loaded for the chat</source>
            <translation>Stop serving the loaded model; the model stays loaded for the chat</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>Close</translation>
        </message>
        <message>
            <source>Close this panel; the server goes on serving</source>
            <translation>Close this panel; the server goes on serving</translation>
        </message>
        <message>
            <source>Not running</source>
            <translation>Not running</translation>
        </message>
        <message>
            <source>Warning: the server listens on all network addresses; anyone who has the key can use it.</source>
            <translation>Warning: the server listens on all network addresses; anyone who has the key can use it.</translation>
        </message>
        <message>
            <source>Speculation per request: %1 running; %2 of %3 slots busy.</source>
            <translation>Speculation per request: %1 running; %2 of %3 slots busy.</translation>
        </message>
        <message>
            <source>%1: %2 requests, %3 tok/s</source>
            <translation>%1: %2 requests, %3 tok/s</translation>
        </message>
        <message>
            <source>(%1x of off)</source>
            <translation>(%1x of off)</translation>
        </message>
        <message>
            <source>A request may ask for another speculation (tandem.speculation: off, a method or auto); it then runs in a second copy of llama.cpp on the same model file, started on first use and stopped when idle. The model's weights are shared; each copy adds its own cache.</source>
            <translation>A request may ask for another speculation (tandem.speculation: off, a method or auto); it then runs in a second copy of llama.cpp on the same model file, started on first use and stopped when idle. The model's weights are shared; each copy adds its own cache.</translation>
        </message>
        <message>
            <source>A request did not fit in the context: its prompt has %1 tokens, the context holds %2. Load the model again with a larger context length (Launch… → Context length); agents need 8,192 tokens or more.</source>
            <translation>A request did not fit in the context: its prompt has %1 tokens, the context holds %2. Load the model again with a larger context length (Launch… → Context length); agents need 8,192 tokens or more.</translation>
        </message>
        <message>
            <source>Context: %1 tokens. Claude Code and Codex send 5,000 tokens or more with each request; a request that does not fit is refused and shown here.</source>
            <translation>Context: %1 tokens. Claude Code and Codex send 5,000 tokens or more with each request; a request that does not fit is refused and shown here.</translation>
        </message>
        <message>
            <source>OpenAI clients (chat completions, Responses)</source>
            <translation>OpenAI clients (chat completions, Responses)</translation>
        </message>
    </context>
    <context>
        <name>ServerSwitch</name>
        <message>
            <source>Server: %1</source>
            <extracomment>the switch asked for a start: show the panel once it listens</extracomment>
            <translation>Server: %1</translation>
        </message>
        <message>
            <source>Local server</source>
            <translation>Local server</translation>
        </message>
        <message>
            <source>Show the address, the key and the requests of the running server</source>
            <translation>Show the address, the key and the requests of the running server</translation>
        </message>
        <message>
            <source>Serve the loaded model to other programs over OpenAI- and Anthropic-compatible APIs</source>
            <translation>Serve the loaded model to other programs over OpenAI- and Anthropic-compatible APIs</translation>
        </message>
        <message>
            <source>Starting…</source>
            <translation>Starting…</translation>
        </message>
        <message>
            <source>The server could not start: %1</source>
            <translation>The server could not start: %1</translation>
        </message>
    </context>
    <context>
        <name>SettingsDialog</name>
        <message>
            <source>Choose the model cache folder</source>
            <extracomment>the dialog opens this wide where the screen allows (it may be made narrower, down to 680 px)</extracomment>
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
            <source>General</source>
            <translation>General</translation>
        </message>
        <message>
            <source>Tools</source>
            <translation>Tools</translation>
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
            <source>Default (leave empty), or the address of your own ModelScope server</source>
            <translation>Default (leave empty), or the address of your own ModelScope server</translation>
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
            <source>Speculation at start</source>
            <translation>Speculation at start</translation>
        </message>
        <message>
            <source>Auto (measured on this machine)</source>
            <translation>Auto (measured on this machine)</translation>
        </message>
        <message>
            <source>Off</source>
            <translation>Off</translation>
        </message>
        <message>
            <source>What the model loaded at start uses. Auto measures each model once on this machine (a few seconds) and keeps speculation only where it pays; Off decodes plainly.</source>
            <translation>What the model loaded at start uses. Auto measures each model once on this machine (a few seconds) and keeps speculation only where it pays; Off decodes plainly.</translation>
        </message>
        <message>
            <source>Language</source>
            <translation>Language</translation>
        </message>
        <message>
            <source>Learned text</source>
            <translation>Learned text</translation>
        </message>
        <message>
            <source>Forget learned text</source>
            <translation>Forget learned text</translation>
        </message>
        <message>
            <source>Suffix decoding (MLX) drafts from your earlier questions and answers, kept on this computer only ({tokens} tokens now). Forgetting deletes them; deleting a conversation deletes what it taught.</source>
            <translation>Suffix decoding (MLX) drafts from your earlier questions and answers, kept on this computer only ({tokens} tokens now). Forgetting deletes them; deleting a conversation deletes what it taught.</translation>
        </message>
        <message>
            <source>System language</source>
            <translation>System language</translation>
        </message>
        <message>
            <source>Appearance</source>
            <translation>Appearance</translation>
        </message>
        <message>
            <source>Follow the system</source>
            <translation>Follow the system</translation>
        </message>
        <message>
            <source>Light</source>
            <translation>Light</translation>
        </message>
        <message>
            <source>Dark</source>
            <translation>Dark</translation>
        </message>
        <message>
            <source>Light or dark colours; by default they follow the system's setting</source>
            <translation>Light or dark colours; by default they follow the system's setting</translation>
        </message>
        <message>
            <source>Local server key</source>
            <translation>Local server key</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>Copy</translation>
        </message>
        <message>
            <source>Reading the key…</source>
            <translation>Reading the key…</translation>
        </message>
        <message>
            <source>Clients send it as the API key. Set by TANDEM_API_KEY for this session.</source>
            <translation>Clients send it as the API key. Set by TANDEM_API_KEY for this session.</translation>
        </message>
        <message>
            <source>Clients send it as the API key. Kept in the system keyring.</source>
            <translation>Clients send it as the API key. Kept in the system keyring.</translation>
        </message>
        <message>
            <source>Clients send it as the API key. No system keyring: a new key is made at each start.</source>
            <translation>Clients send it as the API key. No system keyring: a new key is made at each start.</translation>
        </message>
        <message>
            <source>Clients send it as the API key.</source>
            <translation>Clients send it as the API key.</translation>
        </message>
    </context>
    <context>
        <name>SourceDialog</name>
        <message>
            <source>Source</source>
            <translation>Source</translation>
        </message>
        <message>
            <source>The model was given the whole document; its beginning is shown here.</source>
            <translation>The model was given the whole document; its beginning is shown here.</translation>
        </message>
        <message>
            <source>The model was given this passage with the question.</source>
            <translation>The model was given this passage with the question.</translation>
        </message>
        <message>
            <source>Open the document</source>
            <translation>Open the document</translation>
        </message>
        <message>
            <source>Open the stored copy of {file} with the system's viewer</source>
            <translation>Open the stored copy of {file} with the system's viewer</translation>
        </message>
    </context>
    <context>
        <name>SourcesPanel</name>
        <message>
            <source>Sources ({n})</source>
            <translation>Sources ({n})</translation>
        </message>
        <message>
            <source>The documents and passages this answer was given</source>
            <translation>The documents and passages this answer was given</translation>
        </message>
    </context>
    <context>
        <name>SpeculationChoice</name>
        <message>
            <source>last answer: {configuration}</source>
            <extracomment>the configuration that wrote the last answer ("" before one) the offered configurations are switched inside the loaded engine (MLX), not a pool's Auto routes each answer by its kind (a pool with Auto's router)</extracomment>
            <translation>last answer: {configuration}</translation>
        </message>
        <message>
            <source>The configuration that wrote this conversation's last answer (same text, its own speed)</source>
            <translation>The configuration that wrote this conversation's last answer (same text, its own speed)</translation>
        </message>
        <message>
            <source>Speculation:</source>
            <translation>Speculation:</translation>
        </message>
        <message>
            <source>Speculative decoding for this conversation's answers. A change applies from the next answer; the text is the same either way, only the speed changes.</source>
            <translation>Speculative decoding for this conversation's answers. A change applies from the next answer; the text is the same either way, only the speed changes.</translation>
        </message>
        <message>
            <source>Off</source>
            <translation>Off</translation>
        </message>
        <message>
            <source>no speculation</source>
            <translation>no speculation</translation>
        </message>
        <message>
            <source>Chosen per answer by its kind (prose, code, repeat, agent) among the configurations below, by what was measured on this machine</source>
            <translation>Chosen per answer by its kind (prose, code, repeat, agent) among the configurations below, by what was measured on this machine</translation>
        </message>
        <message>
            <source>What the model was loaded with: {running}</source>
            <translation>What the model was loaded with: {running}</translation>
        </message>
        <message>
            <source>What the loaded model runs; honoured without a reload</source>
            <translation>What the loaded model runs; honoured without a reload</translation>
        </message>
        <message>
            <source>Switched per answer inside the loaded engine, on the same weights: no reload</source>
            <translation>Switched per answer inside the loaded engine, on the same weights: no reload</translation>
        </message>
        <message>
            <source>Started beside the loaded model on its first answer, sharing its memory: no reload</source>
            <translation>Started beside the loaded model on its first answer, sharing its memory: no reload</translation>
        </message>
        <message>
            <source>Needs a reload with {method}: the loaded engine switches per answer only between {offered}</source>
            <translation>Needs a reload with {method}: the loaded engine switches per answer only between {offered}</translation>
        </message>
        <message>
            <source>Needs a reload without speculation: the loaded model runs {running}, which cannot be turned off per answer</source>
            <translation>Needs a reload without speculation: the loaded model runs {running}, which cannot be turned off per answer</translation>
        </message>
        <message>
            <source>Needs a reload with {method}: the loaded model runs {running}, and speculation cannot change per answer</source>
            <translation>Needs a reload with {method}: the loaded model runs {running}, and speculation cannot change per answer</translation>
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
            <source>Mean tokens per drafting round</source>
            <translation>Mean tokens per drafting round</translation>
        </message>
        <message>
            <source>Speculation</source>
            <translation>Speculation</translation>
        </message>
        <message>
            <source>Every configuration on this answer</source>
            <translation>Every configuration on this answer</translation>
        </message>
        <message>
            <source>Depth (drafted)</source>
            <translation>Depth (drafted)</translation>
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
            <source>{ms} ms, including encoding the image</source>
            <translation>{ms} ms, including encoding the image</translation>
        </message>
        <message>
            <source>{ms} ms, including encoding {n} images</source>
            <translation>{ms} ms, including encoding {n} images</translation>
        </message>
        <message>
            <source>Acceptance figures</source>
            <translation>Acceptance figures</translation>
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
            <source>Accepted</source>
            <translation>Accepted</translation>
        </message>
        <message>
            <source>Emitted</source>
            <translation>Emitted</translation>
        </message>
        <message>
            <source>set by the server</source>
            <translation>set by the server</translation>
        </message>
        <message>
            <source>replayed</source>
            <translation>replayed</translation>
        </message>
        <message>
            <source>estimated</source>
            <translation>estimated</translation>
        </message>
        <message>
            <source>{name}: {ratio} ({tps} tok/s, {basis})</source>
            <translation>{name}: {ratio} ({tps} tok/s, {basis})</translation>
        </message>
        <message>
            <source>← answered</source>
            <translation>← answered</translation>
        </message>
        <message>
            <source>none (nothing drafted)</source>
            <translation>none (nothing drafted)</translation>
        </message>
        <message>
            <source>Plain decode speed, this prompt</source>
            <translation>Plain decode speed, this prompt</translation>
        </message>
        <message>
            <source>Speedup vs plain, measured</source>
            <translation>Speedup vs plain, measured</translation>
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
            <extracomment>where a remote server's figures come from ("llama.cpp timings", ...); hidden for local answers why a cut answer stopped (the context is full / Max new tokens); hidden otherwise</extracomment>
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
            <source>Speculation was on ({method}) but proposed no draft for this answer: a model-free method drafts only where the text repeats what it has seen, a drafter only where it is sure enough</source>
            <translation>Speculation was on ({method}) but proposed no draft for this answer: a model-free method drafts only where the text repeats what it has seen, a drafter only where it is sure enough</translation>
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
            <source>Mean tokens emitted per drafting round: the accepted drafts plus the model's own token, fewer when the answer ended inside the round</source>
            <translation>Mean tokens emitted per drafting round: the accepted drafts plus the model's own token, fewer when the answer ended inside the round</translation>
        </message>
        <message>
            <source>Tandem has not seen this model answer without speculation on this machine yet. Click Measure to run this prompt without speculation, or get one plain answer of at least {n} tokens: later answers then show the speedup automatically.</source>
            <translation>Tandem has not seen this model answer without speculation on this machine yet. Click Measure to run this prompt without speculation, or get one plain answer of at least {n} tokens: later answers then show the speedup automatically.</translation>
        </message>
        <message>
            <source>{value}× vs plain, measured</source>
            <translation>{value}× vs plain, measured</translation>
        </message>
        <message>
            <source>Measured: the same prompt without speculation decoded at {plain} tok/s on this machine; this answer at {spec} tok/s.</source>
            <translation>Measured: the same prompt without speculation decoded at {plain} tok/s on this machine; this answer at {spec} tok/s.</translation>
        </message>
        <message>
            <source>from {source}</source>
            <translation>from {source}</translation>
        </message>
        <message>
            <source>This answer against the same {n} tokens decoded without speculation, one plain step of the model per token, set against this answer's decode time.</source>
            <translation>This answer against the same {n} tokens decoded without speculation, one plain step of the model per token, set against this answer's decode time.</translation>
        </message>
        <message>
            <source>The plain step was measured during this answer, in its rounds that drafted nothing: another program's load moves both sides alike.</source>
            <translation>The plain step was measured during this answer, in its rounds that drafted nothing: another program's load moves both sides alike.</translation>
        </message>
        <message>
            <source>Each round is priced by what a round of this configuration and depth costs in plain steps on this machine, learned from earlier answers: another program's load does not move the figure.</source>
            <translation>Each round is priced by what a round of this configuration and depth costs in plain steps on this machine, learned from earlier answers: another program's load does not move the figure.</translation>
        </message>
        <message>
            <source>The plain step is the model's, measured in answers a moment before (this configuration's rounds are not priced yet).</source>
            <translation>The plain step is the model's, measured in answers a moment before (this configuration's rounds are not priced yet).</translation>
        </message>
        <message>
            <source>Includes encoding the image</source>
            <translation>Includes encoding the image</translation>
        </message>
        <message>
            <source>Includes encoding the {n} images</source>
            <translation>Includes encoding the {n} images</translation>
        </message>
        <message>
            <source>Passes of the model for this answer: {drafting} verified a draft, {plain} gave one token without one</source>
            <translation>Passes of the model for this answer: {drafting} verified a draft, {plain} gave one token without one</translation>
        </message>
        <message>
            <source>nothing drafted</source>
            <translation>nothing drafted</translation>
        </message>
        <message>
            <source>{share} of the answer drafted, {value} accepted</source>
            <translation>{share} of the answer drafted, {value} accepted</translation>
        </message>
        <message>
            <source>{share} of the answer's tokens came from accepted drafts: for a model-free method, text it copied from the conversation and its documents</source>
            <translation>{share} of the answer's tokens came from accepted drafts: for a model-free method, text it copied from the conversation and its documents</translation>
        </message>
        <message>
            <source>Per round: bar height = the depth drafted in that round, green = accepted</source>
            <translation>Per round: bar height = the depth drafted in that round, green = accepted</translation>
        </message>
        <message>
            <source>Measuring…</source>
            <translation>Measuring…</translation>
        </message>
        <message>
            <source>Measure</source>
            <translation>Measure</translation>
        </message>
        <message>
            <source>Run this prompt again without speculation (same settings, on a plain copy of the model loaded for the measurement) and show the direct speedup of this answer</source>
            <translation>Run this prompt again without speculation (same settings, on a plain copy of the model loaded for the measurement) and show the direct speedup of this answer</translation>
        </message>
        <message>
            <source>This answer drafted nothing: every token was decoded as without speculation, so it claims no speedup.</source>
            <translation>This answer drafted nothing: every token was decoded as without speculation, so it claims no speedup.</translation>
        </message>
        <message>
            <source>speedup: not measured</source>
            <translation>speedup: not measured</translation>
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
    <context>
        <name>Thumbnail</name>
        <message>
            <source>Click to enlarge</source>
            <translation>Click to enlarge</translation>
        </message>
        <message>
            <source>Remove this image</source>
            <translation>Remove this image</translation>
        </message>
    </context>
    <context>
        <name>ToolCallBlock</name>
        <message>
            <source>Tool call: {name}</source>
            <extracomment>what a block can say of its call: waiting for the user, running, or how it ended the one line of a call that did not go well ("" otherwise; the answer shows it)</extracomment>
            <translation>Tool call: {name}</translation>
        </message>
        <message>
            <source>Approve</source>
            <translation>Approve</translation>
        </message>
        <message>
            <source>Run this call once</source>
            <translation>Run this call once</translation>
        </message>
        <message>
            <source>Deny</source>
            <translation>Deny</translation>
        </message>
        <message>
            <source>Do not run it; the answer ends here</source>
            <translation>Do not run it; the answer ends here</translation>
        </message>
        <message>
            <source>Always allow</source>
            <translation>Always allow</translation>
        </message>
        <message>
            <source>Run it, and run this tool without asking from now on</source>
            <translation>Run it, and run this tool without asking from now on</translation>
        </message>
        <message>
            <source>Waiting for your approval.</source>
            <translation>Waiting for your approval.</translation>
        </message>
        <message>
            <source>Running…</source>
            <translation>Running…</translation>
        </message>
        <message>
            <source>Ran; its result is below.</source>
            <translation>Ran; its result is below.</translation>
        </message>
    </context>
    <context>
        <name>ToolsPage</name>
        <message>
            <source>The tool servers could not be started</source>
            <translation>The tool servers could not be started</translation>
        </message>
        <message>
            <source>starting</source>
            <translation>starting</translation>
        </message>
        <message>
            <source>running</source>
            <translation>running</translation>
        </message>
        <message>
            <source>stopped</source>
            <translation>stopped</translation>
        </message>
        <message>
            <source>off</source>
            <translation>off</translation>
        </message>
        <message>
            <source>failed: {reason}</source>
            <translation>failed: {reason}</translation>
        </message>
        <message>
            <source>Off</source>
            <translation>Off</translation>
        </message>
        <message>
            <source>Ask every time</source>
            <translation>Ask every time</translation>
        </message>
        <message>
            <source>Always allow</source>
            <translation>Always allow</translation>
        </message>
        <message>
            <source>Never offered to the model</source>
            <translation>Never offered to the model</translation>
        </message>
        <message>
            <source>Each call waits for your approval</source>
            <translation>Each call waits for your approval</translation>
        </message>
        <message>
            <source>Calls run without asking</source>
            <translation>Calls run without asking</translation>
        </message>
        <message>
            <source>Import mcpServers JSON</source>
            <translation>Import mcpServers JSON</translation>
        </message>
        <message>
            <source>JSON files (*.json);;All files (*)</source>
            <translation>JSON files (*.json);;All files (*)</translation>
        </message>
        <message>
            <source>Export mcpServers JSON</source>
            <translation>Export mcpServers JSON</translation>
        </message>
        <message>
            <source>JSON files (*.json)</source>
            <translation>JSON files (*.json)</translation>
        </message>
        <message>
            <source>Exported to {path}.</source>
            <translation>Exported to {path}.</translation>
        </message>
        <message>
            <source>Left empty: {names}.</source>
            <translation>Left empty: {names}.</translation>
        </message>
        <message>
            <source>MCP servers whose tools the model may call in the chat, each call with your approval unless its rule is Always allow; a tool that is Off is never offered to the model. Changes are saved at once; secrets go to the keyring.</source>
            <translation>MCP servers whose tools the model may call in the chat, each call with your approval unless its rule is Always allow; a tool that is Off is never offered to the model. Changes are saved at once; secrets go to the keyring.</translation>
        </message>
        <message>
            <source>Use</source>
            <translation>Use</translation>
        </message>
        <message>
            <source>Description</source>
            <translation>Description</translation>
        </message>
        <message>
            <source>Server / tool</source>
            <translation>Server / tool</translation>
        </message>
        <message>
            <source>State</source>
            <translation>State</translation>
        </message>
        <message>
            <source>Import mcpServers JSON…</source>
            <translation>Import mcpServers JSON…</translation>
        </message>
        <message>
            <source>Export…</source>
            <translation>Export…</translation>
        </message>
        <message>
            <source>Add server…</source>
            <translation>Add server…</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>Remove</translation>
        </message>
    </context>
    <context>
        <name>VerifyDialog</name>
        <message>
            <source>The check could not run</source>
            <extracomment>the prompts done so far in a running check, shown as they come</extracomment>
            <translation>The check could not run</translation>
        </message>
        <message>
            <source>Stopping…</source>
            <translation>Stopping…</translation>
        </message>
        <message>
            <source>Baseline: {message}</source>
            <translation>Baseline: {message}</translation>
        </message>
        <message>
            <source>Endpoint: {message}</source>
            <translation>Endpoint: {message}</translation>
        </message>
        <message>
            <source>Prose</source>
            <translation>Prose</translation>
        </message>
        <message>
            <source>Code</source>
            <translation>Code</translation>
        </message>
        <message>
            <source>Chinese</source>
            <translation>Chinese</translation>
        </message>
        <message>
            <source>List</source>
            <translation>List</translation>
        </message>
        <message>
            <source>Arithmetic</source>
            <translation>Arithmetic</translation>
        </message>
        <message>
            <source>Prompt {i} of {n} ({kind}): the baseline answers, then the endpoint…</source>
            <translation>Prompt {i} of {n} ({kind}): the baseline answers, then the endpoint…</translation>
        </message>
        <message>
            <source>Connecting to both servers…</source>
            <translation>Connecting to both servers…</translation>
        </message>
        <message>
            <source>Stopped.</source>
            <translation>Stopped.</translation>
        </message>
        <message>
            <source>EXACT: the endpoint's answers match the baseline's on all {n} prompts.</source>
            <translation>EXACT: the endpoint's answers match the baseline's on all {n} prompts.</translation>
        </message>
        <message>
            <source>TOP_K_MATCH: {k} of {n} prompts differ at a near-tie (each token among the other side's top candidates), the others match exactly.</source>
            <translation>TOP_K_MATCH: {k} of {n} prompts differ at a near-tie (each token among the other side's top candidates), the others match exactly.</translation>
        </message>
        <message>
            <source>FAIL: {k} of {n} prompts diverge from the baseline. Check that both servers run the same model file and settings; if they do, the drafter changes the output.</source>
            <translation>FAIL: {k} of {n} prompts diverge from the baseline. Check that both servers run the same model file and settings; if they do, the drafter changes the output.</translation>
        </message>
        <message>
            <source>The baseline reported drafted tokens: it should run without a drafter, or this check compares two speculative servers.</source>
            <translation>The baseline reported drafted tokens: it should run without a drafter, or this check compares two speculative servers.</translation>
        </message>
        <message>
            <source>The endpoint does not report acceptance, so Tandem cannot tell whether it drafted.</source>
            <translation>The endpoint does not report acceptance, so Tandem cannot tell whether it drafted.</translation>
        </message>
        <message>
            <source>The endpoint reported no drafted tokens: it seems to run without a drafter, so this check compared two plain servers.</source>
            <translation>The endpoint reported no drafted tokens: it seems to run without a drafter, so this check compared two plain servers.</translation>
        </message>
        <message>
            <source>not reported</source>
            <translation>not reported</translation>
        </message>
        <message>
            <source>The endpoint drafted {drafted} tokens and {accepted} were accepted ({source}).</source>
            <translation>The endpoint drafted {drafted} tokens and {accepted} were accepted ({source}).</translation>
        </message>
        <message>
            <source>(the baseline's answer ended)</source>
            <translation>(the baseline's answer ended)</translation>
        </message>
        <message>
            <source>EXACT: the same text ({n} tokens)</source>
            <translation>EXACT: the same text ({n} tokens)</translation>
        </message>
        <message>
            <source>EXACT: the same {n} tokens</source>
            <translation>EXACT: the same {n} tokens</translation>
        </message>
        <message>
            <source>TOP_K_MATCH at token {pos}: baseline {off}, endpoint {on}; log-probability gap {gap}</source>
            <translation>TOP_K_MATCH at token {pos}: baseline {off}, endpoint {on}; log-probability gap {gap}</translation>
        </message>
        <message>
            <source>FAIL at token {pos}: baseline {off}, endpoint {on} (text compared: the server gave no token ids)</source>
            <translation>FAIL at token {pos}: baseline {off}, endpoint {on} (text compared: the server gave no token ids)</translation>
        </message>
        <message>
            <source>(the endpoint's answer ended)</source>
            <translation>(the endpoint's answer ended)</translation>
        </message>
        <message>
            <source>not known</source>
            <translation>not known</translation>
        </message>
        <message>
            <source>FAIL at token {pos}: baseline {off} (log-probability {off_lp}), endpoint {on} (log-probability {on_lp} at the baseline)</source>
            <translation>FAIL at token {pos}: baseline {off} (log-probability {off_lp}), endpoint {on} (log-probability {on_lp} at the baseline)</translation>
        </message>
        <message>
            <source>Model: {model}</source>
            <translation>Model: {model}</translation>
        </message>
        <message>
            <source>Text compared: the servers gave no token ids.</source>
            <translation>Text compared: the servers gave no token ids.</translation>
        </message>
        <message>
            <source>Verify the drafter's output</source>
            <translation>Verify the drafter's output</translation>
        </message>
        <message>
            <source>Greedy answers of {endpoint} (with its drafter) compared with {baseline} (the same model without a drafter): {n} prompts of different kinds, up to {max} tokens each. Speculative decoding must not change greedy output.</source>
            <translation>Greedy answers of {endpoint} (with its drafter) compared with {baseline} (the same model without a drafter): {n} prompts of different kinds, up to {max} tokens each. Speculative decoding must not change greedy output.</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>Stop</translation>
        </message>
        <message>
            <source>Run again</source>
            <translation>Run again</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>Close</translation>
        </message>
    </context>
    <context>
        <name>_SourceRow</name>
        <message>
            <source>Show this passage</source>
            <translation>Show this passage</translation>
        </message>
    </context>
</TS>
