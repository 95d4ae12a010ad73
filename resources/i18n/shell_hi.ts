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
        <source>Search tensors (e.g. position, wpe, layers.0)</source>
        <translation>टेंसर खोजें (जैसे position, wpe, layers.0)</translation>
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
        <source>{n} patches ({side}×{side})</source>
        <translation>{n} पैच ({side}×{side})</translation>
    </message>
    <message>
        <source>— (unreadable)</source>
        <translation>— (पढ़ा नहीं जा सका)</translation>
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
    <name>Forms</name>
    <message>
        <source>Range {low} … {high}.</source>
        <translation>सीमा {low} … {high}.</translation>
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
        <translation>पोज़िशनल एनकोडिंग एक्सप्लोरर</translation>
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
        <source>Stop the running computation (Esc); the previous view stays</source>
        <translation>चल रही गणना रोकें (Esc); पिछला व्यू बना रहता है</translation>
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
        <source>Open Preferences: theme, colour maps, export defaults, compute device, window layout</source>
        <translation>प्राथमिकताएँ खोलें: थीम, कलर मैप, एक्सपोर्ट के डिफ़ॉल्ट, कंप्यूट डिवाइस, विंडो लेआउट</translation>
    </message>
</context>
<context>
    <name>Panels</name>
    <message>
        <source>Checkpoint</source>
        <translation>चेकपॉइंट</translation>
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
        <source>Where the attention inspector computes its maps</source>
        <translation>अटेंशन इंस्पेक्टर अपने मैप कहाँ कंप्यूट करता है</translation>
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
    <name>ViewDock</name>
    <message>
        <source>Showing the previous result: the computation for the current settings was cancelled, so this picture does not match them.</source>
        <translation>पिछला नतीजा दिखाया जा रहा है: मौजूदा सेटिंग्स की गणना रद्द कर दी गई थी, इसलिए यह चित्र उनसे मेल नहीं खाता।</translation>
    </message>
    <message>
        <source>Recompute</source>
        <extracomment>the key of this panel&apos;s settings in ``Document.views``, and of its spec in ``peapp.views`` (a neutral name such as &quot;heatmap&quot;); a dock that does not set it uses its object_name the name on the panel&apos;s tab and title bar when ``title`` is long: ten full titles did not fit the tab bar and were elided (&quot;Length extrapol…&quot;); the tab&apos;s tooltip and the menus say ``title`` computes on the device chosen in Preferences (re-run when it changes) compute on a thread of the dock&apos;s own (``self.worker``), not the shared one: for work of minutes that would otherwise hold every other panel&apos;s pictures back</extracomment>
        <translation>फिर से कंप्यूट करें</translation>
    </message>
    <message>
        <source>Compute the picture for the current settings</source>
        <translation>मौजूदा सेटिंग्स के लिए चित्र कंप्यूट करें</translation>
    </message>
</context>
</TS>
