<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="hi">
<context>
    <name>Checkpoint</name>
    <message>
        <source>No checkpoint open. File &gt; Open (Ctrl+O), drop a model folder or file on the window, or try File &gt; Open Sample.</source>
        <translation>कोई चेकपॉइंट खुला नहीं है। फ़ाइल &gt; खोलें (Ctrl+O) चुनें, किसी मॉडल का फ़ोल्डर या फ़ाइल विंडो पर छोड़ें, या फ़ाइल &gt; सैंपल खोलें आज़माएँ।</translation>
    </message>
    <message>
        <source>from {source}</source>
        <translation>स्रोत: {source}</translation>
    </message>
    <message>
        <source>Position components found; choose one to show it in the views</source>
        <translation>मिले हुए पोज़िशन घटक; किसी एक को चुनें ताकि व्यू उसे दिखाएँ</translation>
    </message>
    <message>
        <source>Search tensors (e.g. position_embeddings, layers.0)</source>
        <translation>टेंसर खोजें (जैसे position_embeddings, layers.0)</translation>
    </message>
    <message>
        <source>Show only the tensors whose name contains this text</source>
        <translation>सिर्फ़ वे टेंसर दिखाएँ जिनके नाम में यह टेक्स्ट है</translation>
    </message>
    <message>
        <source>tensor</source>
        <translation>टेंसर</translation>
    </message>
    <message>
        <source>shape</source>
        <translation>आकार</translation>
    </message>
    <message>
        <source>Every tensor in the file, without its data; double-click a 2-D table to show it</source>
        <translation>फ़ाइल का हर टेंसर, उसके डेटा के बिना; किसी 2-D टेबल को दिखाने के लिए उस पर डबल-क्लिक करें</translation>
    </message>
    <message>
        <source>Positions on the first two principal components (colour: position, dark = first)</source>
        <translation>पहले दो प्रिंसिपल कंपोनेंट्स पर पोज़िशन्स (रंग: पोज़िशन, गहरा = पहली)</translation>
    </message>
    <message>
        <source>Spectrum along positions (mean over dimensions)</source>
        <translation>पोज़िशन्स के साथ स्पेक्ट्रम (डायमेंशन्स का औसत)</translation>
    </message>
    <message>
        <source>checkpoint table</source>
        <translation>चेकपॉइंट टेबल</translation>
    </message>
    <message>
        <source>sinusoidal, same size</source>
        <translation>साइनुसॉइडल, उसी आकार की</translation>
    </message>
    <message>
        <source>frequency (cycles per position)</source>
        <translation>फ़्रीक्वेंसी (प्रति पोज़िशन चक्र)</translation>
    </message>
    <message>
        <source>share of power</source>
        <translation>पावर का हिस्सा</translation>
    </message>
    <message>
        <source>L2 norm per position</source>
        <translation>हर पोज़िशन का L2 नॉर्म</translation>
    </message>
    <message>
        <source>position</source>
        <translation>पोज़िशन</translation>
    </message>
    <message>
        <source>By distance</source>
        <translation>दूरी के अनुसार</translation>
    </message>
    <message>
        <source>key − query (positions)</source>
        <translation>की − क्वेरी (पोज़िशन्स)</translation>
    </message>
    <message>
        <source>PCA curve</source>
        <translation>PCA वक्र</translation>
    </message>
    <message>
        <source>Spectrum</source>
        <translation>स्पेक्ट्रम</translation>
    </message>
    <message>
        <source>Norms</source>
        <translation>नॉर्म</translation>
    </message>
    <message>
        <source>vs sinusoidal</source>
        <translation>साइनुसॉइडल से तुलना</translation>
    </message>
    <message>
        <source>dimension</source>
        <translation>डायमेंशन</translation>
    </message>
    <message>
        <source>Opening {path} …</source>
        <translation>{path} खोला जा रहा है …</translation>
    </message>
    <message>
        <source>Still showing {path}.</source>
        <translation>अब भी {path} दिखाया जा रहा है।</translation>
    </message>
    <message>
        <source>Could not open: {message}</source>
        <translation>खोला नहीं जा सका: {message}</translation>
    </message>
    <message>
        <source>Opened {path}: {found}</source>
        <translation>{path} खोला गया: {found}</translation>
    </message>
    <message>
        <source>unknown architecture</source>
        <translation>अज्ञात आर्किटेक्चर</translation>
    </message>
    <message>
        <source>&lt;b&gt;{name}&lt;/b&gt; — {format}, {count} tensors, {architecture}</source>
        <translation>&lt;b&gt;{name}&lt;/b&gt; — {format}, {count} टेंसर, {architecture}</translation>
    </message>
    <message>
        <source>no position component</source>
        <translation>कोई पोज़िशन घटक नहीं</translation>
    </message>
    <message>
        <source>Warnings:</source>
        <translation>चेतावनियाँ:</translation>
    </message>
    <message>
        <source>No checkpoint open.</source>
        <translation>कोई चेकपॉइंट खुला नहीं है।</translation>
    </message>
    <message>
        <source>no position component found</source>
        <translation>कोई पोज़िशन घटक नहीं मिला</translation>
    </message>
    <message>
        <source>scalar</source>
        <translation>स्केलर</translation>
    </message>
    <message>
        <source>… {count} more (search to find them)</source>
        <translation>… {count} और (उन्हें ढूँढने के लिए खोजें)</translation>
    </message>
    <message>
        <source>Cannot show {what}: {problem}</source>
        <translation>{what} दिखाना संभव नहीं: {problem}</translation>
    </message>
    <message>
        <source>{kind}: nothing to show for this component</source>
        <translation>{kind}: इस घटक के लिए दिखाने को कुछ नहीं है</translation>
    </message>
    <message>
        <source>Show checkpoint {kind}</source>
        <translation>चेकपॉइंट का {kind} दिखाएँ</translation>
    </message>
    <message>
        <source>Analysing {tensor} …</source>
        <translation>{tensor} का विश्लेषण हो रहा है …</translation>
    </message>
    <message>
        <source>{tensor} has shape {shape}: not a [positions, dim] table</source>
        <translation>{tensor} का आकार {shape} है: यह [पोज़िशन्स, डायमेंशन] टेबल नहीं है</translation>
    </message>
    <message>
        <source>Show {tensor}</source>
        <translation>{tensor} दिखाएँ</translation>
    </message>
    <message>
        <source>{name}: {n} positions × {d} dims. PC1+PC2 explain {explained}; {low} of its power lies in the lowest 1/16 of frequencies (sinusoidal: {sinusoidal}); norms {lo}–{hi}.</source>
        <translation>{name}: {n} पोज़िशन्स × {d} डायमेंशन्स। PC1+PC2 मिलकर {explained} समझाते हैं; इसकी {low} पावर सबसे निचली 1/16 फ़्रीक्वेंसीज़ में है (साइनुसॉइडल: {sinusoidal}); नॉर्म {lo}–{hi}।</translation>
    </message>
    <message>
        <source>PC1 ({share} of variance)</source>
        <translation>PC1 (वेरिएंस का {share})</translation>
    </message>
    <message>
        <source>Could not analyse the table: {message}</source>
        <translation>टेबल का विश्लेषण नहीं हो सका: {message}</translation>
    </message>
    <message>
        <source>Could not compute the curves: {message}</source>
        <translation>वक्र नहीं निकाले जा सके: {message}</translation>
    </message>
    <message>
        <source>key − query = {distance}: {what} per head {values}</source>
        <translation>की − क्वेरी = {distance}: हर हेड का {what} {values}</translation>
    </message>
    <message>
        <source>position {i}: PC1 {x}, PC2 {y}</source>
        <translation>पोज़िशन {i}: PC1 {x}, PC2 {y}</translation>
    </message>
    <message>
        <source>position {i}: norm {norm}</source>
        <translation>पोज़िशन {i}: नॉर्म {norm}</translation>
    </message>
    <message>
        <source>frequency {f} cycles/position (period {period}): table {table}, sinusoidal {sinusoidal} of the power</source>
        <translation>फ़्रीक्वेंसी {f} चक्र/पोज़िशन (पीरियड {period}): पावर का टेबल में {table}, साइनुसॉइडल में {sinusoidal}</translation>
    </message>
</context>
<context>
    <name>CheckpointActions</name>
    <message>
        <source>Checkpoints (*.safetensors *.bin *.pt *.pth *.ckpt *.gguf *.json);;Safetensors (*.safetensors *.safetensors.index.json);;GGUF (*.gguf);;PyTorch state dicts (*.bin *.pt *.pth *.ckpt);;Config (config.json);;All files (*)</source>
        <translation>चेकपॉइंट (*.safetensors *.bin *.pt *.pth *.ckpt *.gguf *.json);;Safetensors (*.safetensors *.safetensors.index.json);;GGUF (*.gguf);;PyTorch स्टेट डिक्ट (*.bin *.pt *.pth *.ckpt);;कॉन्फ़िग (config.json);;सभी फ़ाइलें (*)</translation>
    </message>
    <message>
        <source>&amp;Open Checkpoint…</source>
        <translation>चेकपॉइंट खोलें (&amp;O)…</translation>
    </message>
    <message>
        <source>Open a .safetensors, .bin/.pt, .gguf or config.json file</source>
        <translation>.safetensors, .bin/.pt, .gguf या config.json फ़ाइल खोलें</translation>
    </message>
    <message>
        <source>Open Model &amp;Folder…</source>
        <translation>मॉडल फ़ोल्डर खोलें (&amp;F)…</translation>
    </message>
    <message>
        <source>Open a Hugging Face model folder (config.json and weights)</source>
        <translation>Hugging Face का मॉडल फ़ोल्डर खोलें (config.json और वेट्स)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>हाल की फ़ाइलें खोलें (&amp;R)</translation>
    </message>
    <message>
        <source>Open &amp;Sample</source>
        <translation>सैंपल खोलें (&amp;S)</translation>
    </message>
    <message>
        <source>Will open {path} when the backend has loaded …</source>
        <translation>बैकएंड लोड होते ही {path} खोला जाएगा …</translation>
    </message>
    <message>
        <source>{path} does not exist; choose a model file or folder.</source>
        <translation>{path} मौजूद नहीं है; कोई मॉडल फ़ाइल या फ़ोल्डर चुनें।</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>(अभी कोई नहीं)</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>सूची साफ़ करें</translation>
    </message>
    <message>
        <source>More samples: {command}</source>
        <translation>और सैंपल: {command}</translation>
    </message>
    <message>
        <source>Open checkpoint</source>
        <translation>चेकपॉइंट खोलें</translation>
    </message>
    <message>
        <source>Open model folder</source>
        <translation>मॉडल फ़ोल्डर खोलें</translation>
    </message>
</context>
<context>
    <name>CheckpointLinks</name>
    <message>
        <source>sentence tokens now use {tensor} ({width} dims)</source>
        <extracomment>how far past its trained context an unscaled model is asked to read in the extrapolation view</extracomment>
        <translation>वाक्य के टोकन्स अब {tensor} इस्तेमाल करते हैं ({width} डायमेंशन्स)</translation>
    </message>
    <message>
        <source>sentence tokens now use {tensor} ({width} dims), projected to head_dim {shown}</source>
        <translation>वाक्य के टोकन्स अब {tensor} इस्तेमाल करते हैं ({width} डायमेंशन्स), head_dim {shown} पर प्रोजेक्ट किए गए</translation>
    </message>
    <message>
        <source>sentence tokens use hashed vectors again ({name} has no word-embedding table with a vocabulary)</source>
        <translation>वाक्य के टोकन्स फिर से हैश किए गए वेक्टर इस्तेमाल करते हैं ({name} में शब्दावली वाली वर्ड-एम्बेडिंग टेबल नहीं है)</translation>
    </message>
    <message>
        <source>head_dim {shown} from {name}</source>
        <translation>{name} से head_dim {shown}</translation>
    </message>
</context>
<context>
    <name>Claims</name>
    <message>
        <source>Claim</source>
        <translation>दावा</translation>
    </message>
    <message>
        <source>Which of the article&apos;s claims the panel shows beside its measurement.</source>
        <translation>लेख के कौन-से दावे को पैनल उसके माप के साथ दिखाए।</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>पोज़िशन्स</translation>
    </message>
    <message>
        <source>Temperature: positions of the scale curve (the entropy uses at most 2,048).</source>
        <translation>टेम्परेचर: स्केल कर्व की पोज़िशन्स (एन्ट्रॉपी अधिकतम 2,048 उपयोग करती है)।</translation>
    </message>
    <message>
        <source>Llama 4&apos;s attn_scale (an opened Llama 4 config&apos;s value replaces it).</source>
        <translation>Llama 4 का attn_scale (खोले गए Llama 4 कॉन्फ़िग का मान इसकी जगह लेता है)।</translation>
    </message>
    <message>
        <source>Llama 4&apos;s floor_scale: the scale steps at every multiple (8,192 in Llama 4; smaller here to see steps within 2,048).</source>
        <translation>Llama 4 का floor_scale: स्केल हर गुणज पर स्टेप लेता है (Llama 4 में 8,192; 2,048 के भीतर स्टेप्स देखने के लिए यहाँ छोटा)।</translation>
    </message>
    <message>
        <source>log-n s</source>
        <translation>log-n s</translation>
    </message>
    <message>
        <source>Scalable-Softmax&apos;s s in s·log n.</source>
        <translation>Scalable-Softmax के s·log n में s।</translation>
    </message>
    <message>
        <source>Cost file</source>
        <translation>लागत फ़ाइल</translation>
    </message>
    <message>
        <source>A saved `peapp cost --json` result.</source>
        <translation>सहेजा हुआ `peapp cost --json` परिणाम।</translation>
    </message>
    <message>
        <source>Sinks file</source>
        <translation>सिंक्स फ़ाइल</translation>
    </message>
    <message>
        <source>A saved `peapp probe streaming --json` result.</source>
        <translation>सहेजा हुआ `peapp probe streaming --json` परिणाम।</translation>
    </message>
    <message>
        <source>Ranking folder</source>
        <translation>रैंकिंग फ़ोल्डर</translation>
    </message>
    <message>
        <source>The folder of `peapp lab --preset ranking -o FOLDER`.</source>
        <translation>`peapp lab --preset ranking -o FOLDER` का फ़ोल्डर।</translation>
    </message>
    <message>
        <source>Measure here</source>
        <translation>यहीं मापें</translation>
    </message>
    <message>
        <source>Measure the cost of every scheme on this machine, as `peapp cost` does (the lab&apos;s model at 1,024–16,384 tokens and a larger one at 1,024; a minute or two, each case in its own process; Esc cancels). The numbers are saved in the cache folder and the figure is drawn from them.</source>
        <translation>हर स्कीम की लागत इसी मशीन पर मापें, जैसे `peapp cost` मापता है (लैब का मॉडल 1,024–16,384 टोकन्स पर और एक बड़ा मॉडल 1,024 पर; एक-दो मिनट, हर केस अपनी अलग प्रोसेस में; Esc रद्द करता है)। संख्याएँ कैश फ़ोल्डर में सहेजी जाती हैं और चित्र उन्हीं से बनता है।</translation>
    </message>
    <message>
        <source>Hover over a plot for its numbers.</source>
        <translation>संख्याओं के लिए प्लॉट पर होवर करें।</translation>
    </message>
    <message>
        <source>Measured claims: measuring the cost of each scheme (a minute or two; Esc cancels)…</source>
        <translation>मापे गए दावे: हर स्कीम की लागत मापी जा रही है (एक-दो मिनट; Esc रद्द करता है)…</translation>
    </message>
    <message>
        <source>{x}: {values}</source>
        <translation>{x}: {values}</translation>
    </message>
</context>
<context>
    <name>Detect</name>
    <message>
        <source>learned table {n} positions × {dim} ({how}, first {offset} rows skipped)</source>
        <translation>लर्न्ड टेबल {n} पोज़िशन्स × {dim} ({how}, पहली {offset} पंक्तियाँ छोड़ी गईं)</translation>
    </message>
    <message>
        <source>learned table {n} positions × {dim} ({how})</source>
        <translation>लर्न्ड टेबल {n} पोज़िशन्स × {dim} ({how})</translation>
    </message>
    <message>
        <source>[sin | cos] halves</source>
        <translation>[sin | cos] आधे-आधे</translation>
    </message>
    <message>
        <source>sin, cos interleaved</source>
        <translation>sin, cos बारी-बारी से</translation>
    </message>
    <message>
        <source>fixed sinusoids, {n} positions × {dim}, {how}</source>
        <translation>तय साइनुसॉइड्स, {n} पोज़िशन्स × {dim}, {how}</translation>
    </message>
    <message>
        <source>ALiBi, {heads} heads, slopes from 2^(−{bias}/n) ({form})</source>
        <translation>ALiBi, {heads} हेड्स, ढलान 2^(−{bias}/n) से ({form})</translation>
    </message>
    <message>
        <source>{rotated} of {dims} dims rotate</source>
        <translation>{dims} में से {rotated} डायमेंशन्स घूमते हैं</translation>
    </message>
    <message>
        <source>adjacent (2i, 2i+1) pairs</source>
        <translation>पास-पास की (2i, 2i+1) जोड़ियाँ</translation>
    </message>
    <message>
        <source>half-split (i, i+d/2) pairs</source>
        <translation>आधे में बँटी (i, i+d/2) जोड़ियाँ</translation>
    </message>
    <message>
        <source>unusable {kind} scaling (see the warnings)</source>
        <translation>अनुपयोगी {kind} स्केलिंग (चेतावनियाँ देखें)</translation>
    </message>
    <message>
        <source>default scaling</source>
        <translation>डिफ़ॉल्ट स्केलिंग</translation>
    </message>
    <message>
        <source>{kind} scaling</source>
        <translation>{kind} स्केलिंग</translation>
    </message>
    <message>
        <source>per-pair frequency factors from rope_freqs.weight (Llama-3 scaling as converted by llama.cpp)</source>
        <translation>rope_freqs.weight से हर जोड़ी के फ़्रीक्वेंसी फ़ैक्टर (llama.cpp द्वारा बदली गई Llama-3 स्केलिंग)</translation>
    </message>
    <message>
        <source>interleaved over the pairs</source>
        <translation>जोड़ों पर इंटरलीव्ड</translation>
    </message>
    <message>
        <source>contiguous sections, time on the highest frequencies</source>
        <translation>लगातार खंड, समय सबसे ऊँची फ़्रीक्वेंसीज़ पर</translation>
    </message>
    <message>
        <source>RoPE{layers} base {base}, {scaling}, {layout}</source>
        <translation>RoPE{layers} बेस {base}, {scaling}, {layout}</translation>
    </message>
</context>
<context>
    <name>Document</name>
    <message>
        <source>this session was saved by a newer peapp (format {version}; this one reads up to {supported}). Update peapp to open it.</source>
        <translation>यह सेशन peapp के नए संस्करण ने सहेजा था (फ़ॉर्मैट {version}; यह संस्करण {supported} तक पढ़ता है)। इसे खोलने के लिए peapp अपडेट करें।</translation>
    </message>
    <message>
        <source>session file has an invalid parameter: {problem}</source>
        <translation>सेशन फ़ाइल में एक अमान्य पैरामीटर है: {problem}</translation>
    </message>
    <message>
        <source>session file has an invalid view setting: {problem}</source>
        <translation>सेशन फ़ाइल में एक अमान्य व्यू सेटिंग है: {problem}</translation>
    </message>
</context>
<context>
    <name>DocumentModel</name>
    <message>
        <source>Set {names}</source>
        <translation>{names} बदला</translation>
    </message>
    <message>
        <source>Show {family}</source>
        <translation>{family} दिखाएँ</translation>
    </message>
    <message>
        <source>Change {names}</source>
        <translation>{names} बदला</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG चित्र (*.png)</translation>
    </message>
    <message>
        <source>SVG vector figure (*.svg)</source>
        <translation>SVG वेक्टर चित्र (*.svg)</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>PDF दस्तावेज़ (*.pdf)</translation>
    </message>
    <message>
        <source>CSV text (*.csv)</source>
        <translation>CSV टेक्स्ट (*.csv)</translation>
    </message>
    <message>
        <source>NumPy array (*.npy)</source>
        <translation>NumPy ऐरे (*.npy)</translation>
    </message>
    <message>
        <source>NumPy archive, all arrays (*.npz)</source>
        <translation>NumPy आर्काइव, सभी ऐरे (*.npz)</translation>
    </message>
    <message>
        <source>peapp session (*.json);;Exported figure or data with parameters (*.png *.svg *.pdf *.json)</source>
        <translation>peapp सेशन (*.json);;पैरामीटर्स सहित एक्सपोर्ट किया गया चित्र या डेटा (*.png *.svg *.pdf *.json)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>एक्सपोर्ट</translation>
    </message>
    <message>
        <source>Export the {panel} panel: figure (PNG, SVG, PDF) or data (CSV, NPY)</source>
        <translation>{panel} पैनल एक्सपोर्ट करें: चित्र (PNG, SVG, PDF) या डेटा (CSV, NPY)</translation>
    </message>
    <message>
        <source>Figure (PNG, SVG, PDF)…</source>
        <translation>चित्र (PNG, SVG, PDF)…</translation>
    </message>
    <message>
        <source>Data (CSV, NPY) and parameters…</source>
        <translation>डेटा (CSV, NPY) और पैरामीटर्स…</translation>
    </message>
    <message>
        <source>Export data of {panel}</source>
        <translation>{panel} का डेटा एक्सपोर्ट करें</translation>
    </message>
    <message>
        <source>Export every open panel into a folder</source>
        <translation>हर खुला पैनल एक फ़ोल्डर में एक्सपोर्ट करें</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>सेशन सहेजें</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>सेशन खोलें</translation>
    </message>
    <message>
        <source>Replace files?</source>
        <translation>फ़ाइलें बदलें?</translation>
    </message>
    <message>
        <source>These files already exist in {folder}:

{names}

Replace them?</source>
        <translation>ये फ़ाइलें {folder} में पहले से मौजूद हैं:

{names}

क्या इन्हें बदल दें?</translation>
    </message>
    <message>
        <source>No panel to export.</source>
        <translation>एक्सपोर्ट के लिए कोई पैनल नहीं।</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>एक्सपोर्ट विफल रहा</translation>
    </message>
    <message>
        <source>No open panel to export.</source>
        <translation>एक्सपोर्ट के लिए कोई खुला पैनल नहीं।</translation>
    </message>
    <message>
        <source>Export cancelled; nothing was written.</source>
        <translation>एक्सपोर्ट रद्द किया गया; कुछ नहीं लिखा गया।</translation>
    </message>
    <message>
        <source>writing failed: {problem}; nothing was written.</source>
        <translation>लिखना विफल रहा: {problem}; कुछ नहीं लिखा गया।</translation>
    </message>
    <message>
        <source>Exported 1 file to {folder}: {names}</source>
        <translation>1 फ़ाइल {folder} में एक्सपोर्ट की गई: {names}</translation>
    </message>
    <message>
        <source>Exported {n} files to {folder}: {names}</source>
        <translation>{n} फ़ाइलें {folder} में एक्सपोर्ट की गईं: {names}</translation>
    </message>
    <message>
        <source>Session not saved</source>
        <translation>सेशन सहेजा नहीं गया</translation>
    </message>
    <message>
        <source>Session saved to {path}</source>
        <translation>सेशन {path} में सहेजा गया</translation>
    </message>
    <message>
        <source>Session not opened</source>
        <translation>सेशन नहीं खुला</translation>
    </message>
    <message>
        <source>The current session is unchanged.</source>
        <translation>मौजूदा सेशन नहीं बदला है।</translation>
    </message>
    <message>
        <source>Open session {name}</source>
        <translation>सेशन {name} खोलें</translation>
    </message>
    <message>
        <source>Opened session {path} (Undo brings back the previous one)</source>
        <translation>सेशन {path} खोला गया (पूर्ववत करने से पिछला वापस आता है)</translation>
    </message>
    <message>
        <source>light</source>
        <translation>हल्की</translation>
    </message>
    <message>
        <source>dark</source>
        <translation>गहरी</translation>
    </message>
    <message>
        <source>Export figure — {panel}</source>
        <translation>चित्र एक्सपोर्ट करें — {panel}</translation>
    </message>
    <message>
        <source>Where the figure is written; its extension picks the format</source>
        <translation>चित्र कहाँ लिखा जाएगा; इसका एक्सटेंशन फ़ॉर्मैट तय करता है</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>ब्राउज़ करें…</translation>
    </message>
    <message>
        <source>Choose the file in a dialog</source>
        <translation>डायलॉग में फ़ाइल चुनें</translation>
    </message>
    <message>
        <source>File</source>
        <translation>फ़ाइल</translation>
    </message>
    <message>
        <source>PNG: pixels at the chosen scale; SVG and PDF: vector, text stays text (Hindi in SVG also as outlines)</source>
        <translation>PNG: चुने गए स्केल पर पिक्सेल; SVG और PDF: वेक्टर, टेक्स्ट टेक्स्ट ही रहता है (SVG में हिन्दी आउटलाइन के रूप में भी)</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>फ़ॉर्मैट</translation>
    </message>
    <message>
        <source>Figure size in on-screen pixels (SVG/PDF page size at 96 dpi)</source>
        <translation>स्क्रीन के पिक्सेल में चित्र का आकार (96 dpi पर SVG/PDF पेज का आकार)</translation>
    </message>
    <message>
        <source>Size (on screen)</source>
        <translation>आकार (स्क्रीन पर)</translation>
    </message>
    <message>
        <source>PNG pixels per on-screen pixel; 2× is sharp on high-DPI screens and slides</source>
        <translation>स्क्रीन के हर पिक्सेल पर PNG पिक्सेल; 2× हाई-DPI स्क्रीन और स्लाइड्स पर साफ़ दिखता है</translation>
    </message>
    <message>
        <source>PNG scale</source>
        <translation>PNG स्केल</translation>
    </message>
    <message>
        <source>light: black on white, for papers; dark: light on black, for slides</source>
        <translation>हल्की: सफ़ेद पर काला, पेपर्स के लिए; गहरी: काले पर हल्का, स्लाइड्स के लिए</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>थीम</translation>
    </message>
    <message>
        <source>Export figure</source>
        <translation>चित्र एक्सपोर्ट करें</translation>
    </message>
</context>
<context>
    <name>Facts</name>
    <message>
        <source>layers</source>
        <translation>लेयर्स</translation>
    </message>
    <message>
        <source>heads</source>
        <translation>हेड्स</translation>
    </message>
    <message>
        <source>KV heads</source>
        <translation>KV हेड्स</translation>
    </message>
    <message>
        <source>hidden size</source>
        <translation>हिडन साइज़</translation>
    </message>
    <message>
        <source>context length</source>
        <translation>कॉन्टेक्स्ट लंबाई</translation>
    </message>
    <message>
        <source>vocabulary</source>
        <translation>शब्दावली</translation>
    </message>
    <message>
        <source>dtype / quantization</source>
        <translation>dtype / क्वांटाइज़ेशन</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>पैरामीटर्स</translation>
    </message>
    <message>
        <source>file size</source>
        <translation>फ़ाइल का आकार</translation>
    </message>
    <message>
        <source>not in the file</source>
        <translation>फ़ाइल में नहीं</translation>
    </message>
    <message>
        <source>rows of {tensor}</source>
        <translation>{tensor} की पंक्तियाँ</translation>
    </message>
    <message>
        <source>= heads ({file} gives no num_key_value_heads)</source>
        <translation>= हेड्स ({file} में num_key_value_heads नहीं है)</translation>
    </message>
    <message>
        <source>hidden size ÷ heads</source>
        <translation>हिडन साइज़ ÷ हेड्स</translation>
    </message>
    <message>
        <source>{n} patches ({side}×{side})</source>
        <translation>{n} पैच ({side}×{side})</translation>
    </message>
    <message>
        <source>— (unreadable)</source>
        <translation>— (पढ़ा नहीं जा सका)</translation>
    </message>
    <message>
        <source>{name} (GGUF file type {number})</source>
        <translation>{name} (GGUF फ़ाइल टाइप {number})</translation>
    </message>
    <message>
        <source>{type}; tensors {listed}</source>
        <translation>{type}; टेंसर {listed}</translation>
    </message>
    <message>
        <source>GGUF general.file_type and the tensor types</source>
        <translation>GGUF general.file_type और टेंसर्स के टाइप</translation>
    </message>
    <message>
        <source>tensor headers</source>
        <translation>टेंसर हेडर</translation>
    </message>
    <message>
        <source>{n} buffer/integer tensor(s) not counted</source>
        <translation>{n} बफ़र/पूर्णांक टेंसर नहीं गिने गए</translation>
    </message>
    <message>
        <source>elements of the stored weight tensors (tied weights stored once)</source>
        <translation>सहेजे गए वेट टेंसर्स के एलिमेंट्स (जुड़े हुए वेट्स एक बार गिने गए)</translation>
    </message>
    <message>
        <source>{n} weight files</source>
        <translation>{n} वेट फ़ाइलें</translation>
    </message>
    <message>
        <source>{size} ({n} bytes)</source>
        <translation>{size} ({n} बाइट्स)</translation>
    </message>
    <message>
        <source>{encoder} encoder + {decoder} decoder</source>
        <translation>{encoder} एनकोडर + {decoder} डिकोडर</translation>
    </message>
    <message>
        <source>{context} (trained at {original})</source>
        <translation>{context} ({original} पर ट्रेन किया गया)</translation>
    </message>
</context>
<context>
    <name>FileReader</name>
    <message>
        <source>out of memory while reading the file: is it the right file?</source>
        <translation>फ़ाइल पढ़ते समय मेमोरी ख़त्म हो गई: क्या यह सही फ़ाइल है?</translation>
    </message>
    <message>
        <source>cannot read the file: {problem}.</source>
        <translation>फ़ाइल पढ़ी नहीं जा सकती: {problem}।</translation>
    </message>
    <message>
        <source>internal error while reading ({problem})</source>
        <translation>पढ़ते समय आंतरिक त्रुटि ({problem})</translation>
    </message>
</context>
<context>
    <name>Forms</name>
    <message>
        <source>Range {low} … {high}.</source>
        <translation>सीमा {low} … {high}.</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(कुछ नहीं)</translation>
    </message>
</context>
<context>
    <name>Guide</name>
    <message>
        <source>Sequences always have the same length, and I want the best fit to one dataset</source>
        <translation>सीक्वेंस की लंबाई हमेशा एक जैसी रहती है, और मुझे एक डेटासेट पर सबसे अच्छा फ़िट चाहिए</translation>
    </message>
    <message>
        <source>Training and use see the same maximum length; nothing longer ever comes.</source>
        <translation>ट्रेनिंग और इस्तेमाल में अधिकतम लंबाई एक ही रहती है; इससे लंबा कुछ कभी नहीं आता।</translation>
    </message>
    <message>
        <source>It must handle sequences longer than those seen in training</source>
        <translation>इसे ट्रेनिंग में देखे गए सीक्वेंस से लंबे सीक्वेंस भी संभालने होंगे</translation>
    </message>
    <message>
        <source>Length extrapolation: the model meets positions it was never trained on.</source>
        <translation>लंबाई एक्सट्रैपोलेशन: मॉडल ऐसी पोज़िशन्स से मिलता है जिन पर वह कभी ट्रेन नहीं हुआ।</translation>
    </message>
    <message>
        <source>I want the simplest thing that works</source>
        <translation>मुझे सबसे सरल चीज़ चाहिए जो काम करे</translation>
    </message>
    <message>
        <source>Fewest moving parts: nothing to train, little code.</source>
        <translation>कम से कम पुर्ज़े: ट्रेन करने को कुछ नहीं, थोड़ा-सा कोड।</translation>
    </message>
    <message>
        <source>I am building a modern general-purpose LLM</source>
        <translation>मैं एक आधुनिक, सामान्य-उद्देश्य LLM बना रहा/रही हूँ</translation>
    </message>
    <message>
        <source>A decoder-only language model of the current generation.</source>
        <translation>मौजूदा पीढ़ी का डिकोडर-ओनली लैंग्वेज मॉडल।</translation>
    </message>
    <message>
        <source>What matters is how far apart tokens are, not where they sit</source>
        <translation>मायने यह रखता है कि टोकन्स एक-दूसरे से कितनी दूर हैं, यह नहीं कि वे कहाँ हैं</translation>
    </message>
    <message>
        <source>e.g. grammar: a verb agrees with a subject a few tokens back, wherever the pair is.</source>
        <translation>जैसे व्याकरण: क्रिया कुछ टोकन्स पहले आए कर्ता से मेल खाती है, यह जोड़ी कहीं भी हो।</translation>
    </message>
    <message>
        <source>Position must add no extra memory or caching cost</source>
        <translation>पोज़िशन से मेमोरी या कैशिंग का कोई अतिरिक्त खर्च नहीं बढ़ना चाहिए</translation>
    </message>
    <message>
        <source>Relative schemes that keep a bias or embedding per distance cost memory and complicate the KV cache.</source>
        <translation>जो रिलेटिव स्कीम हर दूरी के लिए एक बायस या एम्बेडिंग रखती हैं, वे मेमोरी लेती हैं और KV कैश को जटिल बनाती हैं।</translation>
    </message>
    <message>
        <source>A zero-parameter baseline: fixed sine/cosine formulas, nothing to train.</source>
        <translation>शून्य पैरामीटर वाला बेसलाइन: तय sine/cosine सूत्र, ट्रेन करने को कुछ नहीं।</translation>
    </message>
    <message>
        <source>With one fixed length, a learned table per position can fit that dataset best.</source>
        <translation>एक तय लंबाई के साथ, हर पोज़िशन की लर्न्ड टेबल उस डेटासेट पर सबसे अच्छा फ़िट कर सकती है।</translation>
    </message>
    <message>
        <source>RoPE with a context-extension scaling (linear/PI, NTK, YaRN, Llama-3 — usually with a short fine-tune at the new length) is how today&apos;s models read past their trained length. Unscaled RoPE is not: measured, it degrades soon past the trained length (Press et al. 2022), as sinusoidal does; the Length extrapolation panel compares the scalings.</source>
        <translation>कॉन्टेक्स्ट बढ़ाने वाली स्केलिंग के साथ RoPE (linear/PI, NTK, YaRN, Llama-3 — आमतौर पर नई लंबाई पर थोड़ी फ़ाइन-ट्यूनिंग के साथ) ही वह तरीका है जिससे आज के मॉडल अपनी ट्रेन की गई लंबाई से आगे पढ़ते हैं। बिना स्केलिंग का RoPE ऐसा नहीं कर पाता: मापने पर वह ट्रेन की गई लंबाई के थोड़ा आगे ही बिगड़ने लगता है (Press et al. 2022), जैसे साइनुसॉइडल; लंबाई एक्सट्रैपोलेशन पैनल इन स्केलिंग्स की तुलना करता है।</translation>
    </message>
    <message>
        <source>Both make attention depend on the distance between tokens, not their absolute positions.</source>
        <translation>दोनों अटेंशन को टोकन्स के बीच की दूरी पर निर्भर बनाते हैं, उनकी एब्सोल्यूट पोज़िशन्स पर नहीं।</translation>
    </message>
    <message>
        <source>RoPE is the standard choice of today&apos;s general-purpose LLMs.</source>
        <translation>आज के सामान्य-उद्देश्य LLM में RoPE ही मानक पसंद है।</translation>
    </message>
    <message>
        <source>Extrapolation first with the simplest implementation: ALiBi only subtracts a distance penalty from the attention scores, and handles sequences longer than trained on.</source>
        <translation>सबसे सरल इम्प्लीमेंटेशन के साथ एक्सट्रैपोलेशन सबसे पहले: ALiBi अटेंशन स्कोर्स से सिर्फ़ दूरी का एक पेनल्टी घटाता है, और ट्रेनिंग से लंबे सीक्वेंस संभाल लेता है।</translation>
    </message>
    <message>
        <source>RoPE gives relative-position behaviour without extra memory or caching cost; relative-bias schemes give it too, but at that cost.</source>
        <translation>RoPE बिना अतिरिक्त मेमोरी या कैशिंग खर्च के रिलेटिव-पोज़िशन जैसा व्यवहार देता है; रिलेटिव-बायस स्कीम भी यह देती हैं, पर उसी खर्च पर।</translation>
    </message>
    <message>
        <source>Relative distance without the memory and caching overhead of relative biases: RoPE.</source>
        <translation>रिलेटिव बायस के मेमोरी और कैशिंग खर्च के बिना रिलेटिव दूरी: RoPE।</translation>
    </message>
    <message>
        <source>A fixed length and extrapolation pull apart: a learned table has no rows past the trained length.</source>
        <translation>तय लंबाई और एक्सट्रैपोलेशन उलटी दिशाओं में खींचते हैं: लर्न्ड टेबल में ट्रेन की गई लंबाई के आगे कोई पंक्ति नहीं होती।</translation>
    </message>
</context>
<context>
    <name>Help</name>
    <message>
        <source>Show/hide the {panel} panel</source>
        <translation>{panel} पैनल दिखाएँ/छिपाएँ</translation>
    </message>
    <message>
        <source>{panel} panel: {what}</source>
        <translation>{panel} पैनल: {what}</translation>
    </message>
    <message>
        <source>undocumented shortcut</source>
        <translation>बिना विवरण का शॉर्टकट</translation>
    </message>
    <message>
        <source>Tour of the panels</source>
        <translation>पैनलों का टूर</translation>
    </message>
    <message>
        <source>Every panel follows the Parameters panel; panels can be moved, tabbed and hidden (View menu), and each has its own Export. Esc ends the tour.</source>
        <translation>हर पैनल पैरामीटर्स पैनल के हिसाब से चलता है; पैनलों को खिसकाया, टैब में रखा और छिपाया जा सकता है (व्यू मेनू), और हर एक का अपना एक्सपोर्ट है। Esc से टूर ख़त्म होता है।</translation>
    </message>
    <message>
        <source>&lt; &amp;Back</source>
        <translation>&lt; पीछे (&amp;B)</translation>
    </message>
    <message>
        <source>The previous panel</source>
        <translation>पिछला पैनल</translation>
    </message>
    <message>
        <source>&amp;Next &gt;</source>
        <translation>आगे (&amp;N) &gt;</translation>
    </message>
    <message>
        <source>The next panel</source>
        <translation>अगला पैनल</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>बंद करें</translation>
    </message>
    <message>
        <source>End the tour (Esc)</source>
        <translation>टूर ख़त्म करें (Esc)</translation>
    </message>
    <message>
        <source>The panels are still loading</source>
        <translation>पैनल अभी लोड हो रहे हैं</translation>
    </message>
    <message>
        <source>Open the tour again in a moment.</source>
        <translation>थोड़ी देर में टूर फिर से खोलें।</translation>
    </message>
    <message>
        <source>{step} of {count}: {title}</source>
        <translation>{count} में से {step}: {title}</translation>
    </message>
    <message>
        <source>&amp;Finish</source>
        <translation>समाप्त (&amp;F)</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>कीबोर्ड शॉर्टकट</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>कुंजियाँ</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>काम</translation>
    </message>
    <message>
        <source>Which encoding should I use?</source>
        <translation>मुझे कौन-सी एनकोडिंग इस्तेमाल करनी चाहिए?</translation>
    </message>
    <message>
        <source>What matters for what you are building?</source>
        <translation>आप जो बना रहे हैं, उसके लिए क्या मायने रखता है?</translation>
    </message>
    <message>
        <source>Tick all that apply.</source>
        <translation>जो भी लागू हों, सब पर टिक करें।</translation>
    </message>
    <message>
        <source>What the article claims, measured</source>
        <translation>लेख के दावे, मापे गए</translation>
    </message>
    <message>
        <source>Tick one or more needs above to see a recommendation.</source>
        <translation>सुझाव देखने के लिए ऊपर एक या ज़्यादा ज़रूरतों पर टिक करें।</translation>
    </message>
    <message>
        <source>Best fit: {family}</source>
        <translation>सबसे उपयुक्त: {family}</translation>
    </message>
    <message>
        <source>Covers: {needs}.</source>
        <translation>पूरी होने वाली ज़रूरतें: {needs}।</translation>
    </message>
    <message>
        <source>Show {family} in the {panel} panel</source>
        <translation>{family} को {panel} पैनल में दिखाएँ</translation>
    </message>
    <message>
        <source>Show {family}</source>
        <translation>{family} दिखाएँ</translation>
    </message>
</context>
<context>
    <name>LayerMap</name>
    <message>
        <source>learned absolute (added at the input)</source>
        <translation>लर्न्ड एब्सोल्यूट (इनपुट पर जोड़ा गया)</translation>
    </message>
    <message>
        <source>fixed sinusoids (added at the input)</source>
        <translation>स्थिर साइनुसॉइड (इनपुट पर जोड़े गए)</translation>
    </message>
    <message>
        <source>ALiBi (distance bias per head)</source>
        <translation>ALiBi (हर हेड का दूरी बायस)</translation>
    </message>
    <message>
        <source>T5 relative bias</source>
        <translation>T5 रिलेटिव बायस</translation>
    </message>
    <message>
        <source>Shaw relative positions</source>
        <translation>Shaw रिलेटिव पोज़िशन्स</translation>
    </message>
    <message>
        <source>2-D patch table (added at the input)</source>
        <translation>2-D पैच टेबल (इनपुट पर जोड़ी गई)</translation>
    </message>
    <message>
        <source>2-D relative bias over the patch grid</source>
        <translation>पैच ग्रिड पर 2-D रिलेटिव बायस</translation>
    </message>
    <message>
        <source>RoPE base {base}</source>
        <translation>RoPE बेस {base}</translation>
    </message>
    <message>
        <source>(unusable {kind} scaling)</source>
        <translation>(अनुपयोगी {kind} स्केलिंग)</translation>
    </message>
    <message>
        <source>{kind} ×{factor}</source>
        <translation>{kind} ×{factor}</translation>
    </message>
    <message>
        <source>{rotated} of {dims} dims rotate</source>
        <translation>{dims} में से {rotated} डायमेंशन्स घूमते हैं</translation>
    </message>
    <message>
        <source>interleaved pairs</source>
        <translation>इंटरलीव्ड जोड़े</translation>
    </message>
    <message>
        <source>NoPE (no position term)</source>
        <translation>NoPE (कोई पोज़िशन पद नहीं)</translation>
    </message>
    <message>
        <source>no attention ({kind})</source>
        <translation>अटेंशन नहीं ({kind})</translation>
    </message>
    <message>
        <source>sliding window ±{n}</source>
        <translation>स्लाइडिंग विंडो ±{n}</translation>
    </message>
    <message>
        <source>sliding window {n}</source>
        <translation>स्लाइडिंग विंडो {n}</translation>
    </message>
    <message>
        <source>chunks of {n}</source>
        <translation>{n} के खंड</translation>
    </message>
    <message>
        <source>global</source>
        <translation>ग्लोबल</translation>
    </message>
    <message>
        <source>learned sinks</source>
        <translation>लर्न्ड सिंक</translation>
    </message>
    <message>
        <source>temperature tuning (×{scale} per {floor} tokens)</source>
        <translation>टेम्परेचर ट्यूनिंग (हर {floor} टोकन्स पर ×{scale})</translation>
    </message>
    <message>
        <source>layers {ranges} ({n}): {scheme}</source>
        <translation>लेयर {ranges} ({n}): {scheme}</translation>
    </message>
    <message>
        <source>layers</source>
        <translation>लेयर</translation>
    </message>
    <message>
        <source>count</source>
        <translation>संख्या</translation>
    </message>
    <message>
        <source>position</source>
        <translation>पोज़िशन</translation>
    </message>
    <message>
        <source>RoPE base</source>
        <translation>RoPE बेस</translation>
    </message>
    <message>
        <source>attention span</source>
        <translation>अटेंशन दायरा</translation>
    </message>
    <message>
        <source>sinks / temperature</source>
        <translation>सिंक / टेम्परेचर</translation>
    </message>
    <message>
        <source>K/V cache</source>
        <translation>K/V कैश</translation>
    </message>
    <message>
        <source>The layers of this kind (runs of consecutive layers)</source>
        <translation>इस प्रकार की लेयर (लगातार लेयरों की श्रेणियाँ)</translation>
    </message>
    <message>
        <source>How many layers are of this kind</source>
        <translation>इस प्रकार की कितनी लेयर हैं</translation>
    </message>
    <message>
        <source>The position scheme inside these layers&apos; attention: RoPE, NoPE (none), or the model&apos;s scheme at the input</source>
        <translation>इन लेयरों के अटेंशन के भीतर पोज़िशन योजना: RoPE, NoPE (कोई नहीं), या इनपुट पर मॉडल की योजना</translation>
    </message>
    <message>
        <source>The RoPE base (θ) these layers rotate with, and its scaling</source>
        <translation>RoPE बेस (θ) जिससे ये लेयर घुमाती हैं, और उसकी स्केलिंग</translation>
    </message>
    <message>
        <source>Global: every earlier key; a sliding window: only the last keys; chunks: only keys in the query&apos;s chunk</source>
        <translation>ग्लोबल: हर पिछली की; स्लाइडिंग विंडो: केवल आख़िरी कीज़; खंड: केवल क्वेरी के खंड की कीज़</translation>
    </message>
    <message>
        <source>Learned sinks: one learned logit per head joins the softmax. Temperature tuning: the query grows with position (Llama 4, NoPE layers)</source>
        <translation>लर्न्ड सिंक: हर हेड का एक लर्न्ड लॉजिट सॉफ़्टमैक्स में जुड़ता है। टेम्परेचर ट्यूनिंग: क्वेरी पोज़िशन के साथ बढ़ती है (Llama 4, NoPE लेयर)</translation>
    </message>
    <message>
        <source>Keys and values these layers hold at the model&apos;s context length, before loading (a window bounds it)</source>
        <translation>मॉडल की कॉन्टेक्स्ट लंबाई पर ये लेयर जितनी कीज़ और वैल्यूज़ रखती हैं, लोड करने से पहले (विंडो इसे सीमित करती है)</translation>
    </message>
    <message>
        <source>layer {i}: {scheme}</source>
        <translation>लेयर {i}: {scheme}</translation>
    </message>
    <message>
        <source>&lt;b&gt;Layers&lt;/b&gt;: {n}, {kinds} kind(s), read from {source} ({keys})</source>
        <translation>&lt;b&gt;लेयर&lt;/b&gt;: {n}, {kinds} प्रकार, {source} से पढ़ी गईं ({keys})</translation>
    </message>
    <message>
        <source>the layer count</source>
        <translation>लेयरों की संख्या</translation>
    </message>
    <message>
        <source>temperature ×{scale} per {floor} tokens</source>
        <translation>हर {floor} टोकन्स पर टेम्परेचर ×{scale}</translation>
    </message>
    <message>
        <source>{bytes} ({keys} keys held)</source>
        <translation>{bytes} ({keys} कीज़ रखी गईं)</translation>
    </message>
    <message>
        <source>layers {ranges}: {scheme}</source>
        <translation>लेयर {ranges}: {scheme}</translation>
    </message>
    <message>
        <source>K/V cache at {n} tokens</source>
        <translation>{n} टोकन्स पर K/V कैश</translation>
    </message>
    <message>
        <source>Hover the strip for each layer&apos;s scheme; click a layer to find its kind in the table.</source>
        <translation>हर लेयर की योजना के लिए पट्टी पर माउस रखें; टेबल में उसका प्रकार ढूँढने के लिए किसी लेयर पर क्लिक करें।</translation>
    </message>
    <message>
        <source>NoPE</source>
        <translation>NoPE</translation>
    </message>
</context>
<context>
    <name>Libraries</name>
    <message>
        <source>the library {module} is missing from this build of the app; build it again with make bundle (packaging/README.md).</source>
        <translation>ऐप के इस बिल्ड में लाइब्रेरी {module} नहीं है; make bundle से इसे फिर से बिल्ड करें (packaging/README.md)।</translation>
    </message>
    <message>
        <source>{library} is incomplete here (it has no {module}); reinstall it: {command}</source>
        <translation>यहाँ {library} अधूरी है (इसमें {module} नहीं है); इसे फिर से इंस्टॉल करें: {command}</translation>
    </message>
    <message>
        <source>the library {library} is not installed; install it: {command}</source>
        <translation>लाइब्रेरी {library} इंस्टॉल नहीं है; इसे इंस्टॉल करें: {command}</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>session</source>
        <extracomment>what the file reader says it reads (&quot;time series /path&quot;), named in the interface&apos;s language</extracomment>
        <translation>सेशन</translation>
    </message>
    <message>
        <source>time series</source>
        <translation>टाइम सीरीज़</translation>
    </message>
    <message>
        <source>config</source>
        <translation>कॉन्फ़िग</translation>
    </message>
    <message>
        <source>checkpoint</source>
        <translation>चेकपॉइंट</translation>
    </message>
    <message>
        <source>Positional Encoding Explorer</source>
        <extracomment>every dock exists (emitted once: from the constructor, or at start-up just after the window&apos;s first paint; docks behind a tab may make their widgets later) a dock built later (on first show) has made its widgets</extracomment>
        <translation>पोज़िशनल एनकोडिंग एक्सप्लोरर</translation>
    </message>
    <message>
        <source>Opening the panels…</source>
        <translation>पैनल खुल रहे हैं…</translation>
    </message>
    <message>
        <source>Loading the compute backend (torch)…</source>
        <translation>कंप्यूट बैकएंड (torch) लोड हो रहा है…</translation>
    </message>
    <message>
        <source>Ready (backend loaded in {seconds} s)</source>
        <translation>तैयार (बैकएंड {seconds} s में लोड हुआ)</translation>
    </message>
    <message>
        <source>The compute backend could not be loaded:
{message}</source>
        <translation>कंप्यूट बैकएंड लोड नहीं हो सका:
{message}</translation>
    </message>
    <message>
        <source>Show or hide the {panel} panel</source>
        <translation>{panel} पैनल दिखाएँ या छिपाएँ</translation>
    </message>
    <message>
        <source>Bring the {panel} panel to the front</source>
        <translation>{panel} पैनल को सामने लाएँ</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>रद्द करें</translation>
    </message>
    <message>
        <source>Stop every long computation the status bar shows (Esc); the previous pictures stay</source>
        <translation>स्टेटस बार में दिख रही हर लंबी गणना रोकें (Esc); पिछले चित्र बने रहते हैं</translation>
    </message>
    <message>
        <source>Stop every long computation the status bar shows; the previous pictures stay</source>
        <translation>स्टेटस बार में दिख रही हर लंबी गणना रोकें; पिछले चित्र बने रहते हैं</translation>
    </message>
    <message>
        <source>Opening {kind} {name} …</source>
        <translation>{kind} {name} खोला जा रहा है …</translation>
    </message>
    <message>
        <source>Opening {kind} {path} (Esc cancels)</source>
        <translation>{kind} {path} खोला जा रहा है (Esc से रद्द करें)</translation>
    </message>
    <message>
        <source>Cancelled; nothing was opened and everything is as it was.</source>
        <translation>रद्द किया गया; कुछ नहीं खुला और सब कुछ पहले जैसा है।</translation>
    </message>
    <message>
        <source>Cancelled; the previous view is kept.</source>
        <translation>रद्द किया गया; पिछला व्यू रखा गया है।</translation>
    </message>
    <message>
        <source>About peapp</source>
        <translation>peapp के बारे में</translation>
    </message>
    <message>
        <source>The saved window layout did not fit this version; using the default layout.</source>
        <translation>सहेजा गया विंडो लेआउट इस संस्करण के लायक नहीं था; डिफ़ॉल्ट लेआउट इस्तेमाल हो रहा है।</translation>
    </message>
    <message>
        <source>Quit peapp?</source>
        <translation>peapp बंद करें?</translation>
    </message>
    <message>
        <source>Quit anyway?</source>
        <translation>फिर भी बंद करें?</translation>
    </message>
</context>
<context>
    <name>Menus</name>
    <message>
        <source>&amp;File</source>
        <translation>फ़ाइल (&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>बंद करें (&amp;Q)</translation>
    </message>
    <message>
        <source>Close the window (the layout is kept for next time)</source>
        <translation>विंडो बंद करें (लेआउट अगली बार के लिए रखा जाता है)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>संपादन (&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>पूर्ववत करें (&amp;U)</translation>
    </message>
    <message>
        <source>Undo the last edit of a parameter or panel setting (also inside a field)</source>
        <translation>किसी पैरामीटर या पैनल सेटिंग का आख़िरी बदलाव पूर्ववत करें (किसी फ़ील्ड के अंदर भी)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>फिर से करें (&amp;R)</translation>
    </message>
    <message>
        <source>Redo the edit undone last</source>
        <translation>आख़िरी पूर्ववत किया गया बदलाव फिर से करें</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>व्यू (&amp;V)</translation>
    </message>
    <message>
        <source>Reset &amp;layout</source>
        <translation>लेआउट रीसेट करें (&amp;L)</translation>
    </message>
    <message>
        <source>Dock every panel back in its place; show them all (an empty Checkpoint panel stays closed)</source>
        <translation>हर पैनल को उसकी जगह वापस डॉक करें; सब दिखाएँ (खाली चेकपॉइंट पैनल बंद ही रहता है)</translation>
    </message>
    <message>
        <source>&amp;Go to panel</source>
        <translation>पैनल पर जाएँ (&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>मदद (&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About peapp</source>
        <translation>peapp के बारे में (&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>प्राथमिकताएँ (&amp;P)…</translation>
    </message>
    <message>
        <source>Open Preferences: theme, colour maps, export defaults, compute device and precision, window layout</source>
        <translation>प्राथमिकताएँ खोलें: थीम, कलर मैप, एक्सपोर्ट के डिफ़ॉल्ट, कंप्यूट डिवाइस और प्रिसिज़न, विंडो लेआउट</translation>
    </message>
    <message>
        <source>Open &amp;Session…</source>
        <translation>सेशन खोलें (&amp;S)…</translation>
    </message>
    <message>
        <source>Restore every parameter and view setting from a session file (or from an exported figure&apos;s embedded parameters)</source>
        <translation>हर पैरामीटर और व्यू सेटिंग किसी सेशन फ़ाइल से वापस लाएँ (या एक्सपोर्ट किए गए चित्र में रखे पैरामीटर्स से)</translation>
    </message>
    <message>
        <source>Save S&amp;ession…</source>
        <translation>सेशन सहेजें (&amp;E)…</translation>
    </message>
    <message>
        <source>Save every parameter and view setting to a JSON session file</source>
        <translation>हर पैरामीटर और व्यू सेटिंग एक JSON सेशन फ़ाइल में सहेजें</translation>
    </message>
    <message>
        <source>&amp;Export Figure…</source>
        <translation>चित्र एक्सपोर्ट करें (&amp;E)…</translation>
    </message>
    <message>
        <source>Export the current panel as PNG, SVG or PDF</source>
        <translation>मौजूदा पैनल को PNG, SVG या PDF के रूप में एक्सपोर्ट करें</translation>
    </message>
    <message>
        <source>Export &amp;Data…</source>
        <translation>डेटा एक्सपोर्ट करें (&amp;D)…</translation>
    </message>
    <message>
        <source>Export the current panel&apos;s data as CSV or NPY, with its parameters as JSON</source>
        <translation>मौजूदा पैनल का डेटा CSV या NPY के रूप में एक्सपोर्ट करें, उसके पैरामीटर्स JSON में</translation>
    </message>
    <message>
        <source>Export &amp;All…</source>
        <translation>सब एक्सपोर्ट करें (&amp;A)…</translation>
    </message>
    <message>
        <source>Write every open panel&apos;s figure and data into a folder</source>
        <translation>हर खुले पैनल का चित्र और डेटा एक फ़ोल्डर में लिखें</translation>
    </message>
    <message>
        <source>&amp;Tour of the panels</source>
        <translation>पैनलों का टूर (&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>कीबोर्ड शॉर्टकट (&amp;K)</translation>
    </message>
    <message>
        <source>List every keyboard shortcut and what it does</source>
        <translation>हर कीबोर्ड शॉर्टकट और उसका काम दिखाएँ</translation>
    </message>
    <message>
        <source>&amp;Which encoding should I use?</source>
        <translation>मुझे कौन-सी एनकोडिंग इस्तेमाल करनी चाहिए? (&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Measured claims</source>
        <translation>मापे गए दावे (&amp;M)</translation>
    </message>
    <message>
        <source>NoPE temperature in Run on text</source>
        <translation>‘टेक्स्ट पर चलाएँ’ में NoPE टेम्परेचर</translation>
    </message>
    <message>
        <source>A NoPE layer&apos;s attention entropy with and without Llama 4&apos;s temperature, from the q and k of the opened model&apos;s run on a text (Run on text, NoPE temperature tab)</source>
        <translation>Llama 4 के टेम्परेचर के साथ और उसके बिना NoPE लेयर की अटेंशन एन्ट्रॉपी, खोले गए मॉडल के किसी टेक्स्ट पर रन के q और k से (टेक्स्ट पर चलाएँ, NoPE टेम्परेचर टैब)</translation>
    </message>
    <message>
        <source>NoPE temperature in the attention inspector</source>
        <translation>अटेंशन इंस्पेक्टर में NoPE टेम्परेचर</translation>
    </message>
    <message>
        <source>The attention inspector with the NoPE scheme: each query&apos;s entropy with Llama 4&apos;s temperature dashed beside the plain one</source>
        <translation>NoPE स्कीम के साथ अटेंशन इंस्पेक्टर: हर क्वेरी की एन्ट्रॉपी Llama 4 के टेम्परेचर के साथ डैश वाली रेखा में, सादी रेखा के साथ</translation>
    </message>
    <message>
        <source>Attention sinks: run on the opened model (Probes)</source>
        <translation>अटेंशन सिंक्स: खुले मॉडल पर चलाएँ (प्रोब)</translation>
    </message>
    <message>
        <source>StreamingLLM&apos;s experiment on the opened checkpoint: perplexity by position with a KV cache of the last W tokens, with and without the first K tokens kept — set W and K, then Run</source>
        <translation>खुले चेकपॉइंट पर StreamingLLM का प्रयोग: आख़िरी W टोकन्स के KV कैश के साथ पोज़िशन के अनुसार पर्प्लेक्सिटी, पहले K टोकन्स रखकर और बिना रखे — W और K चुनें, फिर चलाएँ</translation>
    </message>
</context>
<context>
    <name>Panels</name>
    <message>
        <source>Checkpoint</source>
        <translation>चेकपॉइंट</translation>
    </message>
    <message>
        <source>Loading the compute backend…</source>
        <translation>कंप्यूट बैकएंड लोड हो रहा है…</translation>
    </message>
    <message>
        <source>Measured claims</source>
        <translation>मापे गए दावे</translation>
    </message>
    <message>
        <source>Claims</source>
        <translation>दावे</translation>
    </message>
</context>
<context>
    <name>Params</name>
    <message>
        <source>unknown parameter(s) for {family}: {names}</source>
        <translation>{family} के लिए अज्ञात पैरामीटर: {names}</translation>
    </message>
    <message>
        <source>{label} must be true or false, not {value}</source>
        <translation>{label} हाँ (true) या नहीं (false) होना चाहिए, {value} नहीं</translation>
    </message>
    <message>
        <source>{label} must be text, not {value}</source>
        <translation>{label} टेक्स्ट होना चाहिए, {value} नहीं</translation>
    </message>
    <message>
        <source>{label} must be one of {choices}; got {value}</source>
        <translation>{label} इनमें से एक होना चाहिए: {choices}; मिला {value}</translation>
    </message>
    <message>
        <source>{label} must be finite; got {value}</source>
        <translation>{label} सीमित संख्या होनी चाहिए; मिला {value}</translation>
    </message>
    <message>
        <source>{label} must be at least {minimum}; got {value}</source>
        <translation>{label} कम से कम {minimum} होना चाहिए; मिला {value}</translation>
    </message>
    <message>
        <source>{label} must be at most {maximum}; got {value}</source>
        <translation>{label} ज़्यादा से ज़्यादा {maximum} होना चाहिए; मिला {value}</translation>
    </message>
    <message>
        <source>{label} must be even (dimensions come in pairs); got {value}</source>
        <translation>{label} सम संख्या होनी चाहिए (डायमेंशन्स जोड़ों में आते हैं); मिला {value}</translation>
    </message>
    <message>
        <source>{label} must be a whole number; got {value}</source>
        <translation>{label} पूर्ण संख्या होनी चाहिए; मिला {value}</translation>
    </message>
    <message>
        <source>{label} must be a number; got {value}</source>
        <translation>{label} संख्या होनी चाहिए; मिला {value}</translation>
    </message>
    <message>
        <source>a {digits}-digit number</source>
        <translation>{digits} अंकों की एक संख्या</translation>
    </message>
</context>
<context>
    <name>Preferences</name>
    <message>
        <source>The settings file {file} could not be read; using the defaults (fix or delete that file to keep your changes).</source>
        <translation>सेटिंग्स फ़ाइल {file} पढ़ी नहीं जा सकी; डिफ़ॉल्ट इस्तेमाल हो रहे हैं (अपने बदलाव रखने के लिए उस फ़ाइल को ठीक करें या हटा दें)।</translation>
    </message>
    <message>
        <source>Setting {key} = {value} is {problem}; using {default}.</source>
        <translation>सेटिंग {key} = {value} सही नहीं ({problem}); {default} इस्तेमाल हो रहा है।</translation>
    </message>
    <message>
        <source>auto: the checkpoint&apos;s own dtype on a GPU; on a CPU bfloat16 where torch reports fast bf16 and a bf16 matrix product measures faster than float32, else float32.</source>
        <translation>स्वतः: GPU पर चेकपॉइंट का अपना dtype; CPU पर bfloat16, जहाँ torch तेज़ bf16 बताता है और bf16 मैट्रिक्स गुणन float32 से तेज़ मापा जाता है, वरना float32।</translation>
    </message>
    <message>
        <source>On this CPU: {dtype} (torch reports no fast bf16 here).</source>
        <translation>इस CPU पर: {dtype} (torch यहाँ तेज़ bf16 नहीं बताता)।</translation>
    </message>
    <message>
        <source>On this CPU: {dtype} (a bf16 matrix product ran {speedup}× as fast as float32).</source>
        <translation>इस CPU पर: {dtype} (bf16 मैट्रिक्स गुणन float32 से {speedup}× तेज़ चला)।</translation>
    </message>
    <message>
        <source>System</source>
        <translation>सिस्टम</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>हल्की</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>गहरी</translation>
    </message>
    <message>
        <source>Preferences</source>
        <translation>प्राथमिकताएँ</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>रूप-रंग</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>भाषा</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>थीम</translation>
    </message>
    <message>
        <source>For values that only grow (similarities of non-negative data, magnitudes)</source>
        <translation>सिर्फ़ बढ़ने वाली वैल्यूज़ के लिए (नॉन-नेगेटिव डेटा की समानता, परिमाण)</translation>
    </message>
    <message>
        <source>Colour map</source>
        <translation>कलर मैप</translation>
    </message>
    <message>
        <source>For values centred on zero (encodings, cosine similarity)</source>
        <translation>शून्य के इर्द-गिर्द वैल्यूज़ के लिए (एनकोडिंग्स, कोसाइन समानता)</translation>
    </message>
    <message>
        <source>Diverging colour map</source>
        <translation>डाइवर्जिंग कलर मैप</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>एक्सपोर्ट</translation>
    </message>
    <message>
        <source>Default format</source>
        <translation>डिफ़ॉल्ट फ़ॉर्मैट</translation>
    </message>
    <message>
        <source>Pixel scale of PNG exports (2 × ≈ 192 dpi at the panel&apos;s size)</source>
        <translation>PNG एक्सपोर्ट का पिक्सेल स्केल (पैनल के आकार पर 2 × ≈ 192 dpi)</translation>
    </message>
    <message>
        <source>Default scale</source>
        <translation>डिफ़ॉल्ट स्केल</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>कंप्यूट</translation>
    </message>
    <message>
        <source>Where the attention inspector computes its maps, and Run on text and Probes run the model</source>
        <translation>अटेंशन इंस्पेक्टर अपने मैप कहाँ कंप्यूट करता है, और ‘टेक्स्ट पर चलाएँ’ व ‘प्रोब’ मॉडल कहाँ चलाते हैं</translation>
    </message>
    <message>
        <source>torch sees no GPU on this machine; everything runs on the CPU</source>
        <translation>torch को इस मशीन पर कोई GPU नहीं दिखता; सब कुछ CPU पर चलता है</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>डिवाइस</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>स्वतः</translation>
    </message>
    <message>
        <source>The precision Run on text and Probes run a model in when their own Precision is auto (statistics are accumulated in float32 / float64 whatever it is).</source>
        <translation>जब ‘टेक्स्ट पर चलाएँ’ और ‘प्रोब’ का अपना प्रिसिज़न स्वतः हो, तब वे मॉडल को इसी प्रिसिज़न में चलाते हैं (आँकड़े हर हाल में float32 / float64 में जोड़े जाते हैं)।</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>प्रिसिज़न</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>विंडो</translation>
    </message>
    <message>
        <source>Restore the window layout when the app starts</source>
        <translation>ऐप शुरू होने पर विंडो लेआउट वापस लाएँ</translation>
    </message>
    <message>
        <source>Reset layout now</source>
        <translation>लेआउट अभी रीसेट करें</translation>
    </message>
    <message>
        <source>Put every panel back in its default place</source>
        <translation>हर पैनल को उसकी डिफ़ॉल्ट जगह पर वापस रखें</translation>
    </message>
    <message>
        <source>Recent files</source>
        <translation>हाल की फ़ाइलें</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>सूची साफ़ करें</translation>
    </message>
</context>
<context>
    <name>SafeOpen</name>
    <message>
        <source>config</source>
        <extracomment>The largest file accepted for each kind of file. Generous for real files (a Llama config is 1 KB, a sharded index 100 KB, a tokenizer.json 10–30 MB, a figure a few MB), small enough that reading one whole never strains memory.</extracomment>
        <translation>config</translation>
    </message>
    <message>
        <source>index</source>
        <translation>इंडेक्स</translation>
    </message>
    <message>
        <source>tokenizer/vocabulary</source>
        <translation>टोकनाइज़र/शब्दावली</translation>
    </message>
    <message>
        <source>session</source>
        <translation>सत्र</translation>
    </message>
    <message>
        <source>figure</source>
        <translation>चित्र</translation>
    </message>
    <message>
        <source>image</source>
        <translation>छवि</translation>
    </message>
    <message>
        <source>data</source>
        <translation>डेटा</translation>
    </message>
    <message>
        <source>text</source>
        <translation>टेक्स्ट</translation>
    </message>
    <message>
        <source>results</source>
        <translation>परिणाम</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>वेट्स</translation>
    </message>
    <message>
        <source>a folder</source>
        <extracomment>JSON nested deeper than this is refused (real configs nest 3–4 levels). Integers with more digits than this are refused (JSON allows any length; nothing peapp reads needs it).</extracomment>
        <translation>एक फ़ोल्डर</translation>
    </message>
    <message>
        <source>a named pipe (FIFO)</source>
        <translation>एक नेम्ड पाइप (FIFO)</translation>
    </message>
    <message>
        <source>a device</source>
        <translation>एक डिवाइस</translation>
    </message>
    <message>
        <source>a socket</source>
        <translation>एक सॉकेट</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>सामान्य फ़ाइल नहीं</translation>
    </message>
    <message>
        <source>{path}: no such file; choose an existing {kind} file.</source>
        <translation>{path}: ऐसी कोई फ़ाइल नहीं; कोई मौजूदा {kind} फ़ाइल चुनें।</translation>
    </message>
    <message>
        <source>{path} is a folder, not a {kind} file.</source>
        <translation>{path} एक फ़ोल्डर है, {kind} फ़ाइल नहीं।</translation>
    </message>
    <message>
        <source>{path} is {what}, not a {kind} file; peapp reads regular files only.</source>
        <translation>{path} {what} है, {kind} फ़ाइल नहीं; peapp केवल सामान्य फ़ाइलें पढ़ता है।</translation>
    </message>
    <message>
        <source>{path} is {size} MiB, more than a {kind} file can be ({limit} MiB); is it the right file?</source>
        <translation>{path} {size} MiB की है, {kind} फ़ाइल की सीमा ({limit} MiB) से अधिक; क्या यह सही फ़ाइल है?</translation>
    </message>
    <message>
        <source>{path} is more than {limit} MiB, more than a {kind} file can be; is it the right file?</source>
        <translation>{path} {limit} MiB से बड़ी है, {kind} फ़ाइल की सीमा से अधिक; क्या यह सही फ़ाइल है?</translation>
    </message>
    <message>
        <source>{path} is not UTF-8 text, so not a {kind} file.</source>
        <translation>{path} UTF-8 टेक्स्ट नहीं है, इसलिए {kind} फ़ाइल नहीं।</translation>
    </message>
</context>
<context>
    <name>Samples</name>
    <message>
        <source>Tiny Llama (random weights, made for trying the panels): RoPE</source>
        <translation>छोटा Llama (रैंडम वेट्स, पैनल आज़माने के लिए बना): RoPE</translation>
    </message>
    <message>
        <source>MiniLM (all-MiniLM-L6-v2): learned 512 × 384</source>
        <translation>MiniLM (all-MiniLM-L6-v2): लर्न्ड 512 × 384</translation>
    </message>
    <message>
        <source>SmolLM2-135M (GGUF): RoPE</source>
        <translation>SmolLM2-135M (GGUF): RoPE</translation>
    </message>
</context>
<context>
    <name>Schemes</name>
    <message>
        <source>NoPE (no position)</source>
        <translation>NoPE (कोई पोज़िशन नहीं)</translation>
    </message>
    <message>
        <source>Sinusoidal</source>
        <translation>साइनुसॉइडल</translation>
    </message>
    <message>
        <source>Sinusoidal, added to inputs</source>
        <translation>साइनुसॉइडल, इनपुट में जोड़ा गया</translation>
    </message>
    <message>
        <source>Learned absolute</source>
        <translation>लर्न्ड एब्सोल्यूट</translation>
    </message>
    <message>
        <source>Learned absolute, added to inputs</source>
        <translation>लर्न्ड एब्सोल्यूट, इनपुट में जोड़ा गया</translation>
    </message>
    <message>
        <source>RoPE (rotates q and k)</source>
        <translation>RoPE (q और k को घुमाता है)</translation>
    </message>
    <message>
        <source>ALiBi (linear bias)</source>
        <translation>ALiBi (लीनियर बायस)</translation>
    </message>
    <message>
        <source>T5 relative bias</source>
        <translation>T5 रिलेटिव बायस</translation>
    </message>
    <message>
        <source>T5 bucket bias</source>
        <translation>T5 बकेट बायस</translation>
    </message>
    <message>
        <source>Shaw relative</source>
        <translation>Shaw रिलेटिव</translation>
    </message>
    <message>
        <source>Shaw relative keys</source>
        <translation>Shaw रिलेटिव कीज़</translation>
    </message>
</context>
<context>
    <name>Tour</name>
    <message>
        <source>The parameters dock: choose the family, then edit its parameters.</source>
        <translation>पैरामीटर्स पैनल: एनकोडिंग फ़ैमिली चुनें, फिर उसके पैरामीटर्स बदलें।</translation>
    </message>
    <message>
        <source>The encoding heatmap: positions × dimensions of the chosen family, or position × position similarity, with a colour bar, hover read-out, and cross-sections of a clicked cell.</source>
        <translation>एनकोडिंग हीटमैप: चुनी गई फ़ैमिली की पोज़िशन्स × डायमेंशन्स, या पोज़िशन × पोज़िशन समानता, कलर बार, होवर पर वैल्यू और क्लिक किए गए सेल के क्रॉस-सेक्शन के साथ।</translation>
    </message>
    <message>
        <source>RoPE as rotations: a pair&apos;s 2D vector turning with position, and what that buys.</source>
        <translation>रोटेशन के रूप में RoPE: एक जोड़ी का 2D वेक्टर पोज़िशन के साथ घूमता है, और इससे क्या मिलता है।</translation>
    </message>
    <message>
        <source>The RoPE frequency spectrum: what a scaling (PI, NTK, YaRN, Llama-3, LongRoPE) does to each pair.</source>
        <translation>RoPE फ़्रीक्वेंसी स्पेक्ट्रम: कोई स्केलिंग (PI, NTK, YaRN, Llama-3, LongRoPE) हर जोड़ी के साथ क्या करती है।</translation>
    </message>
    <message>
        <source>The attention-matrix inspector: what each positional scheme does to attention.</source>
        <translation>अटेंशन मैट्रिक्स इंस्पेक्टर: हर पोज़िशनल स्कीम अटेंशन के साथ क्या करती है।</translation>
    </message>
    <message>
        <source>The vision-patch grid: how 2D position encodings see an image cut into patches.</source>
        <translation>विज़न पैच ग्रिड: 2D पोज़िशन एनकोडिंग्स पैच में कटी तस्वीर को कैसे देखती हैं।</translation>
    </message>
    <message>
        <source>The checkpoint panel: what an opened model holds and how it encodes position.</source>
        <translation>चेकपॉइंट पैनल: खोले गए मॉडल में क्या है और वह पोज़िशन को कैसे एनकोड करता है।</translation>
    </message>
    <message>
        <source>The worked example: a word&apos;s embedding, its positional vector, and what the model sees.</source>
        <translation>हल किया हुआ उदाहरण: एक शब्द की एम्बेडिंग, उसका पोज़िशनल वेक्टर, और मॉडल क्या देखता है।</translation>
    </message>
    <message>
        <source>Length extrapolation, side by side: what each scheme does past its training length.</source>
        <translation>लंबाई एक्सट्रैपोलेशन, साथ-साथ: हर स्कीम अपनी ट्रेनिंग लंबाई के आगे क्या करती है।</translation>
    </message>
    <message>
        <source>Time series: encodings of real, irregular timestamps.</source>
        <translation>टाइम सीरीज़: असली, अनियमित टाइमस्टैम्प्स की एनकोडिंग्स।</translation>
    </message>
    <message>
        <source>Training lab: train small transformers that differ only in position encoding, then draw what they measure past their training length (exact match or perplexity vs length, a band over seeds).</source>
        <translation>ट्रेनिंग लैब: ऐसे छोटे ट्रांसफ़ॉर्मर ट्रेन करें जो सिर्फ़ पोज़िशन एनकोडिंग में अलग हों, फिर उनकी ट्रेनिंग लंबाई के आगे का माप बनाएँ (लंबाई के साथ सटीक मिलान या पर्प्लेक्सिटी, सीड्स पर एक बैंड)।</translation>
    </message>
    <message>
        <source>Probes: context extension, &quot;lost in the middle&quot; and attention sinks, measured on the opened checkpoint.</source>
        <translation>प्रोब: कॉन्टेक्स्ट विस्तार, &quot;बीच में खो जाना&quot; और अटेंशन सिंक्स, खुले चेकपॉइंट पर मापे गए।</translation>
    </message>
    <message>
        <source>Run on text: the opened checkpoint run on the user&apos;s text, and what its attention does with position.</source>
        <translation>टेक्स्ट पर चलाएँ: खोला गया चेकपॉइंट आपके टेक्स्ट पर चलता है, और उसका अटेंशन पोज़िशन के साथ क्या करता है।</translation>
    </message>
    <message>
        <source>Multimodal positions (M-RoPE): text, images and video in one sequence.</source>
        <translation>मल्टीमोडल पोज़िशन्स (M-RoPE): एक ही सीक्वेंस में टेक्स्ट, इमेज और वीडियो।</translation>
    </message>
    <message>
        <source>Measured claims: the article&apos;s claims on NoPE&apos;s temperature, the cost of relative positions, attention sinks and the NoPE ranking, each beside what was measured.</source>
        <translation>मापे गए दावे: NoPE के टेम्परेचर, रिलेटिव पोज़िशन्स की लागत, अटेंशन सिंक्स और NoPE रैंकिंग पर लेख के दावे, हर एक मापे गए परिणाम के साथ।</translation>
    </message>
</context>
<context>
    <name>ViewDock</name>
    <message>
        <source>Showing the previous result: the computation for the current settings was cancelled, so this picture does not match them.</source>
        <translation>पिछला नतीजा दिखाया जा रहा है: मौजूदा सेटिंग्स की गणना रद्द कर दी गई थी, इसलिए यह चित्र उनसे मेल नहीं खाता।</translation>
    </message>
    <message>
        <source>Recompute</source>
        <extracomment>the key of this panel&apos;s settings in ``Document.views``, and of its spec in ``peapp.views`` (a neutral name such as &quot;heatmap&quot;); a dock that does not set it uses its object_name the name on the panel&apos;s tab and title bar when ``title`` is long: ten full titles did not fit the tab bar and were elided (&quot;Length extrapol…&quot;); the tab&apos;s tooltip and the menus say ``title`` computes on the device chosen in Preferences (re-run when it changes) Preferences &gt; Precision reaches it (``precision_changed`` is called when it changes) closed in the default layout: its widgets are made when it is first shown (as behind a tab) compute on a thread of the dock&apos;s own (``self.worker``), not the shared one: for work of minutes that would otherwise hold every other panel&apos;s pictures back the dock&apos;s widgets exist (emitted by a dock built later, on first show)</extracomment>
        <translation>फिर से कंप्यूट करें</translation>
    </message>
    <message>
        <source>Compute the picture for the current settings</source>
        <translation>मौजूदा सेटिंग्स के लिए चित्र कंप्यूट करें</translation>
    </message>
</context>
<context>
    <name>Views</name>
    <message>
        <source>none (this view has no settings of its own)</source>
        <extracomment>the key of this panel&apos;s settings in ``Document.views`` (no GUI names: &quot;heatmap&quot;, not a widget&apos;s) the panel&apos;s title, for messages keys this panel&apos;s settings had in older session files (format 1 used the dock&apos;s objectName)</extracomment>
        <translation>कोई नहीं (इस व्यू की अपनी कोई सेटिंग नहीं है)</translation>
    </message>
    <message>
        <source>{view}: unknown setting(s) {names}; allowed: {allowed}</source>
        <translation>{view}: अज्ञात सेटिंग {names}; मान्य: {allowed}</translation>
    </message>
</context>
<context>
    <name>Worker</name>
    <message>
        <source>out of memory: choose a smaller size</source>
        <translation>मेमोरी ख़त्म हो गई: छोटा आकार चुनें</translation>
    </message>
    <message>
        <source>internal error ({problem}); the previous view is kept</source>
        <translation>आंतरिक त्रुटि ({problem}); पिछला व्यू रखा गया है</translation>
    </message>
</context>
</TS>
