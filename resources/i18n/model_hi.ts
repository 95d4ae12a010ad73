<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="hi">
<context>
    <name>Attention</name>
    <message>
        <source>attention weight</source>
        <translation>अटेंशन वेट</translation>
    </message>
    <message>
        <source>logit</source>
        <translation>लॉजिट</translation>
    </message>
    <message>
        <source>position term</source>
        <translation>पोज़िशन टर्म</translation>
    </message>
    <message>
        <source>all {n} queries</source>
        <translation>सभी {n} क्वेरीज़</translation>
    </message>
    <message>
        <source>{n} evenly spaced queries</source>
        <translation>बराबर दूरी पर चुनी {n} क्वेरीज़</translation>
    </message>
    <message>
        <source>Attention each key receives, head {head} (log scale): orange = mean over {over}</source>
        <translation>हर की को मिलने वाला अटेंशन, हेड {head} (लॉग स्केल): नारंगी = {over} का औसत</translation>
    </message>
    <message>
        <source>; blue = the last query</source>
        <translation>; नीला = आख़िरी क्वेरी</translation>
    </message>
    <message>
        <source>; dashed = the causal mask alone, uniform attention: (1/L)·Σ_{i≥j} 1/(i+1). The mask lets early keys collect weight from every later query (primacy)</source>
        <translation>; डैश वाली रेखा = केवल कॉज़ल मास्क, एकसमान अटेंशन: (1/L)·Σ_{i≥j} 1/(i+1)। मास्क के कारण शुरुआती कीज़ हर बाद वाली क्वेरी से वेट बटोरती हैं (प्राइमेसी)</translation>
    </message>
    <message>
        <source>; distance decay (ALiBi, RoPE&apos;s long-range decay) favours recent keys (recency): a mechanism for a U shape, computed from the encoding alone in one seeded, untrained layer. The U-shaped accuracy curve itself (a passage is used best at the start or end of a long prompt, worst in the middle) is an empirical result of Liu et al. 2023 (&quot;Lost in the Middle&quot;) on trained models, not reproduced here.</source>
        <translation>; दूरी के साथ घटाव (ALiBi, RoPE का लंबी दूरी का घटाव) हाल की कीज़ को तरजीह देता है (रीसेंसी): U आकार का एक तंत्र, जो एक सीडेड, बिना ट्रेन की लेयर में केवल एनकोडिंग से निकाला गया है। U आकार का सटीकता-वक्र स्वयं (लंबे प्रॉम्प्ट की शुरुआत या अंत का अंश सबसे अच्छी तरह, बीच का सबसे ख़राब इस्तेमाल होता है) ट्रेन किए गए मॉडलों पर Liu et al. 2023 (&quot;लॉस्ट इन द मिडल&quot;) का प्रायोगिक नतीजा है, जिसे यहाँ दोहराया नहीं गया है।</translation>
    </message>
    <message>
        <source>Attention each key receives, head {head}</source>
        <translation>हर की को मिलने वाला अटेंशन, हेड {head}</translation>
    </message>
    <message>
        <source>. Orange: mean over queries; blue: last query. The primacy from the causal mask and recency from distance decay are computed from the encoding alone; the U-shaped accuracy curve is an empirical result of Liu et al. 2023 (&quot;Lost in the Middle&quot;) on trained models, not shown here. Hover for details.</source>
        <translation>। नारंगी: क्वेरीज़ का औसत; नीला: आख़िरी क्वेरी। कॉज़ल मास्क से प्राइमेसी और दूरी के घटाव से रीसेंसी केवल एनकोडिंग से निकाली गई हैं; U आकार का सटीकता-वक्र ट्रेन किए गए मॉडलों पर Liu et al. 2023 (&quot;लॉस्ट इन द मिडल&quot;) का प्रायोगिक नतीजा है, यहाँ नहीं दिखाया गया। विवरण के लिए माउस ले जाएँ।</translation>
    </message>
    <message>
        <source>. Orange: mean over queries; blue: last query. The recency from distance decay is computed from the encoding alone; the U-shaped accuracy curve is an empirical result of Liu et al. 2023 (&quot;Lost in the Middle&quot;) on trained models, not shown here. Hover for details.</source>
        <translation>। नारंगी: क्वेरीज़ का औसत; नीला: आख़िरी क्वेरी। दूरी के घटाव से रीसेंसी केवल एनकोडिंग से निकाली गई है; U आकार का सटीकता-वक्र ट्रेन किए गए मॉडलों पर Liu et al. 2023 (&quot;लॉस्ट इन द मिडल&quot;) का प्रायोगिक नतीजा है, यहाँ नहीं दिखाया गया। विवरण के लिए माउस ले जाएँ।</translation>
    </message>
    <message>
        <source>Hover over a matrix for query, key, distance and value; click a small one to enlarge it.</source>
        <translation>क्वेरी, की, दूरी और मान देखने के लिए किसी मैट्रिक्स पर माउस ले जाएँ; छोटी मैट्रिक्स को बड़ा करने के लिए उस पर क्लिक करें।</translation>
    </message>
    <message>
        <source>Scheme</source>
        <translation>स्कीम</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>टोकन्स</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>हेड्स</translation>
    </message>
    <message>
        <source>head_dim</source>
        <translation>head_dim</translation>
    </message>
    <message>
        <source>From</source>
        <translation>स्रोत</translation>
    </message>
    <message>
        <source>Sentence</source>
        <translation>वाक्य</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>सीड</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>दिखाएँ</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>हेड</translation>
    </message>
    <message>
        <source>type a sentence; each word becomes a token</source>
        <translation>एक वाक्य लिखें; हर शब्द एक टोकन बनेगा</translation>
    </message>
    <message>
        <source>Shuffle tokens</source>
        <translation>टोकन्स फेंटें</translation>
    </message>
    <message>
        <source>Shuffle the input tokens (positions stay) and compare the outputs with the shuffled originals: equal only without position information and mask.</source>
        <translation>इनपुट टोकन्स को फेंटें (पोज़िशन्स वही रहती हैं) और आउटपुट की तुलना फेंटे गए मूल आउटपुट से करें: दोनों बराबर तभी होंगे जब न पोज़िशन की जानकारी हो, न मास्क।</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>ज़ूम रीसेट करें</translation>
    </message>
    <message>
        <source>Show the whole matrix again (double-click does the same)</source>
        <translation>पूरी मैट्रिक्स फिर से दिखाएँ (डबल-क्लिक भी यही करता है)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>रद्द करें</translation>
    </message>
    <message>
        <source>Stop this panel&apos;s computation; the previous picture stays</source>
        <translation>इस पैनल की गणना रोकें; पिछली तस्वीर बनी रहेगी</translation>
    </message>
    <message>
        <source>Seeded tables</source>
        <translation>सीडेड टेबल्स</translation>
    </message>
    <message>
        <source>Mean weight by distance</source>
        <translation>दूरी के अनुसार औसत वेट</translation>
    </message>
    <message>
        <source>distance (query − key)</source>
        <translation>दूरी (क्वेरी − की)</translation>
    </message>
    <message>
        <source>mean weight</source>
        <translation>औसत वेट</translation>
    </message>
    <message>
        <source>Entropy of each query</source>
        <translation>हर क्वेरी की एंट्रॉपी</translation>
    </message>
    <message>
        <source>query position</source>
        <translation>क्वेरी पोज़िशन</translation>
    </message>
    <message>
        <source>nats</source>
        <translation>नैट</translation>
    </message>
    <message>
        <source>Weight each key receives</source>
        <translation>हर की को मिलने वाला वेट</translation>
    </message>
    <message>
        <source>key position</source>
        <translation>की पोज़िशन</translation>
    </message>
    <message>
        <source>weight (log)</source>
        <translation>वेट (लॉग)</translation>
    </message>
    <message>
        <source>Shuffle: change per token</source>
        <translation>फेंटना: हर टोकन पर बदलाव</translation>
    </message>
    <message>
        <source>position</source>
        <translation>पोज़िशन</translation>
    </message>
    <message>
        <source>relative change</source>
        <translation>सापेक्ष बदलाव</translation>
    </message>
    <message>
        <source>Shuffle tokens: press the button to test whether order reaches the outputs.</source>
        <translation>टोकन्स फेंटें: बटन दबाकर जाँचें कि क्रम आउटपुट तक पहुँचता है या नहीं।</translation>
    </message>
    <message>
        <source>Using the checkpoint&apos;s T5 bias table and word embeddings</source>
        <translation>चेकपॉइंट की T5 बायस टेबल और शब्द एम्बेडिंग्स इस्तेमाल हो रही हैं</translation>
    </message>
    <message>
        <source>Using the checkpoint&apos;s T5 bias table</source>
        <translation>चेकपॉइंट की T5 बायस टेबल इस्तेमाल हो रही है</translation>
    </message>
    <message>
        <source>Using the checkpoint&apos;s word embeddings</source>
        <translation>चेकपॉइंट की शब्द एम्बेडिंग्स इस्तेमाल हो रही हैं</translation>
    </message>
    <message>
        <source>Press to go back to the seeded T5 table and hashed word vectors.</source>
        <translation>सीडेड T5 टेबल और हैश किए गए शब्द वेक्टर्स पर लौटने के लिए दबाएँ।</translation>
    </message>
    <message>
        <source>Shared with the {scheme} parameters ({parameter}): one value, also shown in the Parameters panel.</source>
        <translation>{scheme} पैरामीटर्स ({parameter}) के साथ साझा: एक ही मान, जो पैरामीटर्स पैनल में भी दिखता है।</translation>
    </message>
    <message>
        <source>Shuffling the tokens and recomputing the outputs…</source>
        <translation>टोकन्स फेंटे जा रहे हैं और आउटपुट फिर से निकाले जा रहे हैं…</translation>
    </message>
    <message>
        <source>{panel}: cancelled; the previous picture is kept.</source>
        <translation>{panel}: रद्द किया गया; पिछली तस्वीर रखी गई है।</translation>
    </message>
    <message>
        <source>Shuffle test failed: {message}</source>
        <translation>फेंटने का टेस्ट विफल रहा: {message}</translation>
    </message>
    <message>
        <source>query token</source>
        <translation>क्वेरी टोकन</translation>
    </message>
    <message>
        <source>key token</source>
        <translation>की टोकन</translation>
    </message>
    <message>
        <source> (mean per cell)</source>
        <translation> (हर सेल का औसत)</translation>
    </message>
    <message>
        <source> (max per cell)</source>
        <translation> (हर सेल का अधिकतम)</translation>
    </message>
    <message>
        <source>head {head}: {kind}</source>
        <translation>हेड {head}: {kind}</translation>
    </message>
    <message>
        <source> Grey: masked (future keys get no weight at all — not a weight of 0).</source>
        <translation> धूसर: मास्क किया हुआ (भविष्य की कीज़ को कोई वेट नहीं मिलता — यह 0 वेट नहीं है)।</translation>
    </message>
    <message>
        <source> Head {head} subtracts {slope}·distance (1/{inverse}).</source>
        <translation> हेड {head} {slope}·दूरी घटाता है (1/{inverse})।</translation>
    </message>
    <message>
        <source> The grid shows heads 0–{last}; choose any head with the Head box.</source>
        <translation> ग्रिड में हेड 0–{last} दिखते हैं; कोई भी हेड, हेड बॉक्स से चुनें।</translation>
    </message>
    <message>
        <source>the largest weight shown</source>
        <translation>दिखाए गए सबसे बड़े वेट</translation>
    </message>
    <message>
        <source> Colours: log₁₀ of the weight, from {decades} decades below {top} up to it.</source>
        <translation> रंग: वेट का log₁₀, {top} से {decades} दशक नीचे से लेकर उसी तक।</translation>
    </message>
    <message>
        <source> Colours run from 0 to {top}.</source>
        <translation> रंग 0 से {top} तक हैं।</translation>
    </message>
    <message>
        <source>head {head}</source>
        <translation>हेड {head}</translation>
    </message>
    <message>
        <source> Zoomed: queries {first_query}–{last_query} × keys {first_key}–{last_key} recomputed at {detail}; colours rescaled to this region.</source>
        <translation> ज़ूम: क्वेरीज़ {first_query}–{last_query} × कीज़ {first_key}–{last_key} फिर से निकाली गईं ({detail}); रंग इस हिस्से के अनुसार दोबारा स्केल किए गए।</translation>
    </message>
    <message>
        <source>uniform</source>
        <translation>एकसमान</translation>
    </message>
    <message>
        <source>ALiBi slope per head (2^y)</source>
        <translation>हर हेड का ALiBi स्लोप (2^y)</translation>
    </message>
    <message>
        <source>head</source>
        <translation>हेड</translation>
    </message>
    <message>
        <source>log₂ slope</source>
        <translation>log₂ स्लोप</translation>
    </message>
    <message>
        <source>T5 bucket of key − query</source>
        <translation>की − क्वेरी का T5 बकेट</translation>
    </message>
    <message>
        <source>key − query</source>
        <translation>की − क्वेरी</translation>
    </message>
    <message>
        <source>bucket</source>
        <translation>बकेट</translation>
    </message>
    <message>
        <source>masked (a future key: no weight at all, not a weight of 0)</source>
        <translation>मास्क किया हुआ (भविष्य की की: कोई वेट नहीं, 0 वेट नहीं)</translation>
    </message>
    <message>
        <source>head {head}: query {query}, key {key}{words}, distance {distance}: {value}</source>
        <translation>हेड {head}: क्वेरी {query}, की {key}{words}, दूरी {distance}: {value}</translation>
    </message>
    <message>
        <source>all masked (future keys: no weight at all)</source>
        <translation>सब मास्क किए हुए (भविष्य की कीज़: कोई वेट नहीं)</translation>
    </message>
    <message>
        <source> (partly masked: the masked entries count as 0 in the mean)</source>
        <translation> (आंशिक रूप से मास्क: मास्क की गई एंट्रीज़ औसत में 0 गिनी जाती हैं)</translation>
    </message>
    <message>
        <source> (partly masked)</source>
        <translation> (आंशिक रूप से मास्क)</translation>
    </message>
    <message>
        <source>mean {value}</source>
        <translation>औसत {value}</translation>
    </message>
    <message>
        <source>max {value}</source>
        <translation>अधिकतम {value}</translation>
    </message>
    <message>
        <source>head {head}: queries {first_query}–{last_query}, keys {first_key}–{last_key}, distance {nearest} … {farthest}: {value}</source>
        <translation>हेड {head}: क्वेरीज़ {first_query}–{last_query}, कीज़ {first_key}–{last_key}, दूरी {nearest} … {farthest}: {value}</translation>
    </message>
    <message>
        <source>Attention — {scheme}, {value}, head {head}</source>
        <translation>अटेंशन — {scheme}, {value}, हेड {head}</translation>
    </message>
</context>
<context>
    <name>AttentionPanel</name>
    <message>
        <source>One repeated token</source>
        <translation>एक ही टोकन बार-बार</translation>
    </message>
    <message>
        <source>Random tokens</source>
        <translation>रैंडम टोकन्स</translation>
    </message>
    <message>
        <source>A sentence</source>
        <translation>एक वाक्य</translation>
    </message>
    <message>
        <source>Softmax (attention weights)</source>
        <translation>softmax (अटेंशन वेट्स)</translation>
    </message>
    <message>
        <source>Logits q·k/√d + bias</source>
        <translation>लॉजिट्स q·k/√d + बायस</translation>
    </message>
    <message>
        <source>Position term only</source>
        <translation>केवल पोज़िशन टर्म</translation>
    </message>
    <message>
        <source>Pool: mean</source>
        <translation>पूल: औसत</translation>
    </message>
    <message>
        <source>Pool: max</source>
        <translation>पूल: अधिकतम</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>दिखाएँ</translation>
    </message>
    <message>
        <source>What the matrices show: attention weights, raw logits, or only the part of the logits that position contributes.</source>
        <translation>मैट्रिक्स क्या दिखाएँ: अटेंशन वेट्स, कच्चे लॉजिट्स, या लॉजिट्स का केवल वह हिस्सा जो पोज़िशन से आता है।</translation>
    </message>
    <message>
        <source>Pooling</source>
        <translation>पूलिंग</translation>
    </message>
    <message>
        <source>Long sequences are drawn pooled: each cell is the mean or the max of its block.</source>
        <translation>लंबे सीक्वेंस पूल करके दिखाए जाते हैं: हर सेल अपने ब्लॉक का औसत या अधिकतम है।</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>हेड</translation>
    </message>
    <message>
        <source>The head shown large (or click a small matrix).</source>
        <translation>बड़ा दिखाया जाने वाला हेड (या किसी छोटी मैट्रिक्स पर क्लिक करें)।</translation>
    </message>
    <message>
        <source>0–1 colours</source>
        <translation>0–1 रंग</translation>
    </message>
    <message>
        <source>Attention weights: colours from 0 to 1 (on) or from 0 to the largest weight shown (off; long sequences spread their weight thin).</source>
        <translation>अटेंशन वेट्स: रंग 0 से 1 तक (चालू) या 0 से दिखाए गए सबसे बड़े वेट तक (बंद; लंबे सीक्वेंस अपना वेट पतला फैला देते हैं)।</translation>
    </message>
    <message>
        <source>Log colours</source>
        <translation>लॉग रंग</translation>
    </message>
    <message>
        <source>Attention weights on a log scale, 6 decades below the top: how small weights fall off with distance, invisible on a linear scale at thousands of keys. Read-outs and exports keep the weights themselves.</source>
        <translation>अटेंशन वेट्स लॉग स्केल पर, शीर्ष से 6 दशक नीचे तक: छोटे वेट दूरी के साथ कैसे घटते हैं, जो हज़ारों कीज़ पर लीनियर स्केल में दिखता ही नहीं। रीड-आउट और एक्सपोर्ट में वेट्स वही रहते हैं।</translation>
    </message>
    <message>
        <source>{panel}: the {family} parameters hold a value this panel cannot show: {label} = {value} ({problem}). Change {label} in the Parameters panel, or {own} here.</source>
        <extracomment>The inspector&apos;s settings that are also parameters of the chosen scheme&apos;s encoding family (setting, family parameter). Their one value lives in ``Document.params[family]``, where the Parameters panel and the heatmap read it too; the inspector&apos;s own copy is not used.</extracomment>
        <translation>{panel}: {family} पैरामीटर्स में ऐसा मान है जिसे यह पैनल नहीं दिखा सकता: {label} = {value} ({problem})। पैरामीटर्स पैनल में {label} बदलें, या यहाँ {own}।</translation>
    </message>
    <message>
        <source>{panel}: the {family} parameters do not fit this panel: {problem}</source>
        <translation>{panel}: {family} पैरामीटर्स इस पैनल में नहीं बैठते: {problem}</translation>
    </message>
    <message>
        <source>{panel}: unknown setting(s) {unknown}; allowed: {allowed}</source>
        <translation>{panel}: अज्ञात सेटिंग {unknown}; मान्य: {allowed}</translation>
    </message>
    <message>
        <source> (negated)</source>
        <translation> (उलटा)</translation>
    </message>
    <message>
        <source>This panel&apos;s own scheme ({family}).</source>
        <translation>इस पैनल की अपनी स्कीम ({family})।</translation>
    </message>
    <message>
        <source>Shared with the Parameters panel&apos;s {family} (shown there now): {pairs}.</source>
        <translation>पैरामीटर्स पैनल के {family} के साथ साझा (अभी वहीं दिख रहा है): {pairs}।</translation>
    </message>
    <message>
        <source>Shared with the {family} parameters — this panel&apos;s own scheme; the Parameters panel shows {chosen}, choose {family} there to edit them side by side: {pairs}.</source>
        <translation>{family} पैरामीटर्स के साथ साझा — यह इस पैनल की अपनी स्कीम है; पैरामीटर्स पैनल {chosen} दिखा रहा है, इन्हें साथ-साथ बदलने के लिए वहाँ {family} चुनें: {pairs}।</translation>
    </message>
</context>
<context>
    <name>AttentionSchemes</name>
    <message>
        <source>nothing added anywhere</source>
        <translation>कहीं कुछ नहीं जोड़ा गया</translation>
    </message>
    <message>
        <source>interleaved layout, base {base}</source>
        <translation>इंटरलीव्ड लेआउट, बेस {base}</translation>
    </message>
    <message>
        <source>concatenated layout, base {base}</source>
        <translation>जुड़ा हुआ (कॉन्कैटिनेटेड) लेआउट, बेस {base}</translation>
    </message>
    <message>
        <source>seeded {rows}-row table (seed {seed}), rescaled to std 1 like the tokens</source>
        <translation>{rows} पंक्तियों की सीडेड टेबल (सीड {seed}), टोकन्स की तरह std 1 पर स्केल की गई</translation>
    </message>
    <message>
        <source>half-split pairs</source>
        <translation>आधे-आधे बँटे जोड़े</translation>
    </message>
    <message>
        <source>interleaved pairs</source>
        <translation>इंटरलीव्ड जोड़े</translation>
    </message>
    <message>
        <source>, base {base}</source>
        <translation>, बेस {base}</translation>
    </message>
    <message>
        <source>, {rotary} of {dims} dims rotate</source>
        <translation>, {dims} में से {rotary} डायमेंशन्स घूमते हैं</translation>
    </message>
    <message>
        <source>, {kind} scaling</source>
        <translation>, {kind} स्केलिंग</translation>
    </message>
    <message>
        <source>, attention factor {factor}</source>
        <translation>, अटेंशन फ़ैक्टर {factor}</translation>
    </message>
    <message>
        <source>linear</source>
        <translation>लीनियर</translation>
    </message>
    <message>
        <source>dynamic</source>
        <translation>डायनेमिक</translation>
    </message>
    <message>
        <source>ntk</source>
        <translation>NTK</translation>
    </message>
    <message>
        <source>yarn</source>
        <translation>YaRN</translation>
    </message>
    <message>
        <source>llama3</source>
        <translation>Llama 3</translation>
    </message>
    <message>
        <source>longrope</source>
        <translation>LongRoPE</translation>
    </message>
    <message>
        <source>canonical form −slope·(i − j)</source>
        <translation>मानक रूप −slope·(i − j)</translation>
    </message>
    <message>
        <source>trained bias table {tensor} of {checkpoint}</source>
        <translation>{checkpoint} की ट्रेन की हुई बायस टेबल {tensor}</translation>
    </message>
    <message>
        <source>seeded bias table</source>
        <translation>सीडेड बायस टेबल</translation>
    </message>
    <message>
        <source>{buckets} buckets, max distance {distance}, {table}; q·k is scaled by 1/√d here too (T5 folds it into its weights)</source>
        <translation>{buckets} बकेट, अधिकतम दूरी {distance}, {table}; यहाँ भी q·k को 1/√d से स्केल किया गया है (T5 इसे अपने वेट्स में मिला देता है)</translation>
    </message>
    <message>
        <source>distances clipped to ±{distance}, seeded relative vectors</source>
        <translation>दूरियाँ ±{distance} पर सीमित, सीडेड रिलेटिव वेक्टर्स</translation>
    </message>
</context>
<context>
    <name>AttentionShuffle</name>
    <message>
        <source>{n} tokens (the first {n} of {total})</source>
        <translation>{n} टोकन्स ({total} में से पहले {n})</translation>
    </message>
    <message>
        <source>{n} tokens</source>
        <translation>{n} टोकन्स</translation>
    </message>
    <message>
        <source>no position information and no mask: attention sees a bag of tokens</source>
        <translation>न पोज़िशन की जानकारी, न मास्क: अटेंशन को टोकन्स का बस एक थैला दिखता है</translation>
    </message>
    <message>
        <source>the tokens are all the same, so shuffling changes nothing</source>
        <translation>सारे टोकन्स एक जैसे हैं, इसलिए फेंटने से कुछ नहीं बदलता</translation>
    </message>
    <message>
        <source>order does not reach the outputs</source>
        <translation>क्रम आउटपुट तक नहीं पहुँचता</translation>
    </message>
    <message>
        <source>Equivariant: shuffling {scope} only shuffled the outputs (largest difference {max_abs}, within {tolerance}) — {why}.</source>
        <translation>इक्विवेरिएंट: {scope} फेंटने से आउटपुट केवल उसी तरह फेंटे गए (सबसे बड़ा अंतर {max_abs}, {tolerance} की सीमा में) — {why}।</translation>
    </message>
    <message>
        <source>no position encoding, but the causal mask alone leaks order: each token sees a different prefix</source>
        <translation>कोई पोज़िशनल एनकोडिंग नहीं, पर अकेला कॉज़ल मास्क ही क्रम की जानकारी दे देता है: हर टोकन को अलग प्रीफ़िक्स दिखता है</translation>
    </message>
    <message>
        <source>{scheme} and the causal mask both make order matter</source>
        <translation>{scheme} और कॉज़ल मास्क दोनों क्रम को मायने देते हैं</translation>
    </message>
    <message>
        <source>{scheme} makes order matter</source>
        <translation>{scheme} क्रम को मायने देता है</translation>
    </message>
    <message>
        <source>Not equivariant: after shuffling {scope}, outputs differ from the shuffled originals by up to {max_abs} (median relative change {median}, {moved} of {n} positions changed by more than 0.1%) — {why}.</source>
        <translation>इक्विवेरिएंट नहीं: {scope} फेंटने के बाद आउटपुट फेंटे गए मूल आउटपुट से {max_abs} तक अलग हैं (सापेक्ष बदलाव का मीडियन {median}, {n} में से {moved} पोज़िशन्स 0.1% से ज़्यादा बदलीं) — {why}।</translation>
    </message>
</context>
<context>
    <name>AttentionSpec</name>
    <message>
        <source>NoPE (no position)</source>
        <translation>NoPE (कोई पोज़िशन नहीं)</translation>
    </message>
    <message>
        <source>Sinusoidal, added to inputs</source>
        <translation>साइनुसॉइडल, इनपुट में जोड़ा गया</translation>
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
        <source>T5 bucket bias</source>
        <translation>T5 बकेट बायस</translation>
    </message>
    <message>
        <source>Shaw relative keys</source>
        <translation>Shaw रिलेटिव कीज़</translation>
    </message>
    <message>
        <source>Scheme</source>
        <translation>स्कीम</translation>
    </message>
    <message>
        <source>How position enters attention. Scheme settings (RoPE base and scaling, T5 buckets, Shaw clip, sinusoid base, learned table size) come from the parameters of that family.</source>
        <translation>पोज़िशन अटेंशन में कैसे आती है। स्कीम की सेटिंग्स (RoPE का बेस और स्केलिंग, T5 बकेट, Shaw क्लिप, साइनुसॉइड बेस, लर्न्ड टेबल का आकार) उसी फ़ैमिली के पैरामीटर्स से आती हैं।</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>टोकन्स</translation>
    </message>
    <message>
        <source>Sequence length (queries = keys). Long sequences are shown pooled; zoom in for full resolution.</source>
        <translation>सीक्वेंस की लंबाई (क्वेरीज़ = कीज़)। लंबे सीक्वेंस पूल करके दिखते हैं; पूरे रिज़ॉल्यूशन के लिए ज़ूम करें।</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>हेड्स</translation>
    </message>
    <message>
        <source>Attention heads (up to 256, as the ALiBi and T5 families allow).</source>
        <translation>अटेंशन हेड्स (256 तक, जितने ALiBi और T5 फ़ैमिली अनुमति देती हैं)।</translation>
    </message>
    <message>
        <source>Width of q, k and v per head (also the token width here).</source>
        <translation>हर हेड में q, k और v की चौड़ाई (यहाँ टोकन की चौड़ाई भी यही है)।</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>सीड</translation>
    </message>
    <message>
        <source>Seeds the projections, random tokens, T5 table and Shaw vectors.</source>
        <translation>प्रोजेक्शन्स, रैंडम टोकन्स, T5 टेबल और Shaw वेक्टर्स का सीड।</translation>
    </message>
    <message>
        <source>Tokens from</source>
        <translation>टोकन्स का स्रोत</translation>
    </message>
    <message>
        <source>repeated: one token everywhere, so only position matters; random: seeded random tokens; sentence: the typed words, repeated to fill the length.</source>
        <translation>बार-बार: हर जगह एक ही टोकन, इसलिए केवल पोज़िशन मायने रखती है; रैंडम: सीडेड रैंडम टोकन्स; वाक्य: लिखे गए शब्द, लंबाई भरने तक दोहराए गए।</translation>
    </message>
    <message>
        <source>Sentence</source>
        <translation>वाक्य</translation>
    </message>
    <message>
        <source>Words embedded deterministically (a hash of each word seeds its vector).</source>
        <translation>शब्दों की तय एम्बेडिंग (हर शब्द का हैश उसके वेक्टर का सीड है)।</translation>
    </message>
    <message>
        <source>Causal mask</source>
        <translation>कॉज़ल मास्क</translation>
    </message>
    <message>
        <source>Mask future keys (decoder); off: every token sees all.</source>
        <translation>भविष्य की कीज़ मास्क करें (डिकोडर); बंद: हर टोकन सबको देखता है।</translation>
    </message>
    <message>
        <source>Trained T5 table</source>
        <translation>ट्रेन की हुई T5 टेबल</translation>
    </message>
    <message>
        <source>PATH::TENSOR of a checkpoint&apos;s T5 relative bias table [buckets, heads]; empty: a seeded random table.</source>
        <translation>किसी चेकपॉइंट की T5 रिलेटिव बायस टेबल [बकेट, हेड्स] का PATH::TENSOR; ख़ाली: सीडेड रैंडम टेबल।</translation>
    </message>
    <message>
        <source>Word embeddings</source>
        <translation>शब्द एम्बेडिंग्स</translation>
    </message>
    <message>
        <source>PATH::TENSOR of a checkpoint&apos;s word-embedding table; sentence words found whole in its vocabulary use it, others the hashed vector. Empty: hashed only.</source>
        <translation>किसी चेकपॉइंट की शब्द-एम्बेडिंग टेबल का PATH::TENSOR; वाक्य के जो शब्द उसकी शब्दावली में पूरे मिलते हैं वे इसे लेते हैं, बाक़ी हैश वाला वेक्टर। ख़ाली: केवल हैश।</translation>
    </message>
    <message>
        <source>the sentence has no words; type at least one word, or choose random tokens.</source>
        <translation>वाक्य में कोई शब्द नहीं है; कम से कम एक शब्द लिखें, या रैंडम टोकन्स चुनें।</translation>
    </message>
</context>
<context>
    <name>AttentionView</name>
    <message>
        <source>full resolution</source>
        <translation>पूरा रिज़ॉल्यूशन</translation>
    </message>
    <message>
        <source>mean of {rows} × {cols} entries</source>
        <translation>{rows} × {cols} एंट्रीज़ का औसत</translation>
    </message>
    <message>
        <source>max of {rows} × {cols} entries</source>
        <translation>{rows} × {cols} एंट्रीज़ का अधिकतम</translation>
    </message>
    <message>
        <source> ({n} query row of every {every}, each exact over all keys)</source>
        <translation> (हर {every} में से {n} क्वेरी पंक्ति, हर एक सभी कीज़ पर सटीक)</translation>
    </message>
    <message>
        <source> ({n} evenly spaced query rows of every {every}, each exact over all keys)</source>
        <translation> (हर {every} में से बराबर दूरी पर {n} क्वेरी पंक्तियाँ, हर एक सभी कीज़ पर सटीक)</translation>
    </message>
    <message>
        <source>first 10% of keys {first}, middle 80% {middle}, last 10% {last}</source>
        <translation>पहली 10% कीज़ {first}, बीच की 80% {middle}, आख़िरी 10% {last}</translation>
    </message>
    <message>
        <source> (each word&apos;s vector seeded by its hash)</source>
        <translation> (हर शब्द का वेक्टर उसके हैश से सीड किया गया)</translation>
    </message>
    <message>
        <source> ({found} of {distinct} distinct words from {tensor} of {checkpoint}, scaled to unit std</source>
        <translation> ({distinct} अलग शब्दों में से {found} {checkpoint} के {tensor} से, std 1 पर स्केल किए गए</translation>
    </message>
    <message>
        <source> and projected to {dims} dims by a fixed random map</source>
        <translation> और एक तय रैंडम मैप से {dims} डायमेंशन्स पर प्रोजेक्ट किए गए</translation>
    </message>
    <message>
        <source>; hashed, not whole words in its vocabulary: {words})</source>
        <translation>; हैश किए गए, इसकी शब्दावली में पूरे शब्द नहीं: {words})</translation>
    </message>
    <message>
        <source>attention logits q·k/√d (+ bias)</source>
        <translation>अटेंशन लॉजिट्स q·k/√d (+ बायस)</translation>
    </message>
    <message>
        <source>the position term of the logits</source>
        <translation>लॉजिट्स का पोज़िशन टर्म</translation>
    </message>
    <message>
        <source>attention weights (softmax; each row sums to 1)</source>
        <translation>अटेंशन वेट्स (softmax; हर पंक्ति का योग 1)</translation>
    </message>
    <message>
        <source>the sentence&apos;s {n} tokens repeated{note}</source>
        <translation>वाक्य के {n} टोकन्स दोहराए गए{note}</translation>
    </message>
    <message>
        <source>one repeated token (only position can matter)</source>
        <translation>एक ही टोकन बार-बार (केवल पोज़िशन मायने रख सकती है)</translation>
    </message>
    <message>
        <source>seeded random tokens</source>
        <translation>सीडेड रैंडम टोकन्स</translation>
    </message>
    <message>
        <source>causal mask (future keys get no weight)</source>
        <translation>कॉज़ल मास्क (भविष्य की कीज़ को कोई वेट नहीं)</translation>
    </message>
    <message>
        <source>no mask</source>
        <translation>कोई मास्क नहीं</translation>
    </message>
    <message>
        <source>{scheme}{note}: {what}, {heads} heads × {n} tokens, {tokens}, {mask}. Rows are queries, columns keys; </source>
        <translation>{scheme}{note}: {what}, {heads} हेड्स × {n} टोकन्स, {tokens}, {mask}। पंक्तियाँ क्वेरीज़ हैं, कॉलम कीज़; </translation>
    </message>
    <message>
        <source>full resolution.</source>
        <translation>पूरा रिज़ॉल्यूशन।</translation>
    </message>
    <message>
        <source>each cell is the {reduction}; zoom in for full resolution.</source>
        <translation>हर सेल {reduction} है; पूरे रिज़ॉल्यूशन के लिए ज़ूम करें।</translation>
    </message>
</context>
<context>
    <name>Panels</name>
    <message>
        <source>Attention inspector</source>
        <translation>अटेंशन इंस्पेक्टर</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>अटेंशन</translation>
    </message>
    <message>
        <source>Training lab</source>
        <translation>ट्रेनिंग लैब</translation>
    </message>
    <message>
        <source>Probes</source>
        <translation>प्रोब</translation>
    </message>
    <message>
        <source>Run on text</source>
        <translation>टेक्स्ट पर चलाएँ</translation>
    </message>
</context>
</TS>
