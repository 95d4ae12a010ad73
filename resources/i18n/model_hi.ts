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
        <source>Stop using the checkpoint&apos;s trained T5 table and word embeddings: back to the seeded T5 table and hashed word vectors.</source>
        <translation>चेकपॉइंट की ट्रेन की गई T5 टेबल और शब्द एम्बेडिंग्स का इस्तेमाल बंद करें: वापस सीडेड T5 टेबल और हैश किए गए शब्द वेक्टर्स पर।</translation>
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
        <source> NoPE temperature: for the NoPE scheme only (choose NoPE to draw it).</source>
        <translation> NoPE टेम्परेचर: केवल NoPE स्कीम के लिए (इसे दिखाने के लिए NoPE चुनें)।</translation>
    </message>
    <message>
        <source> NoPE with temperature (entropy plot): dashed red = head {head}&apos;s entropy with each query multiplied by 1 + {a}·ln(1 + ⌊(p + 1)/{f}⌋), Llama 4&apos;s attn_temperature_tuning; solid orange = plain NoPE.</source>
        <translation> टेम्परेचर के साथ NoPE (एन्ट्रॉपी प्लॉट): लाल डैश वाली रेखा = हेड {head} की एन्ट्रॉपी, जब हर क्वेरी को 1 + {a}·ln(1 + ⌊(p + 1)/{f}⌋) से गुणा किया जाए, Llama 4 का attn_temperature_tuning; ठोस नारंगी = सादा NoPE।</translation>
    </message>
    <message>
        <source>The multiplier is 1 at every position shown (it first rises at position {step}): both curves are the same.</source>
        <translation>दिखाई गई हर पोज़िशन पर गुणक 1 है (यह पहली बार पोज़िशन {step} पर बढ़ता है): दोनों वक्र एक ही हैं।</translation>
    </message>
    <message>
        <source>From position {step} on it lowers the entropy at {lowered} of {total} query positions shown, by {mean} nats on average.</source>
        <translation>पोज़िशन {step} से आगे यह दिखाई गई {total} में से {lowered} क्वेरी पोज़िशन्स पर एन्ट्रॉपी घटाता है, औसतन {mean} नैट।</translation>
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
        <source>with temperature</source>
        <translation>टेम्परेचर के साथ</translation>
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
        <source>NoPE temperature</source>
        <translation>NoPE टेम्परेचर</translation>
    </message>
    <message>
        <source>With the NoPE scheme: also draw each query&apos;s entropy with Llama 4&apos;s temperature, the query multiplied by 1 + attn_scale·ln(1 + ⌊(p + 1)/floor_scale⌋) (dashed, beside the plain one).</source>
        <translation>NoPE स्कीम के साथ: हर क्वेरी की एन्ट्रॉपी Llama 4 के टेम्परेचर के साथ भी दिखाएँ, जिसमें क्वेरी को 1 + attn_scale·ln(1 + ⌊(p + 1)/floor_scale⌋) से गुणा किया जाता है (डैश वाली रेखा, सादी रेखा के साथ)।</translation>
    </message>
    <message>
        <source>Llama 4&apos;s attn_scale (0.1 in Llama 4): how much the query&apos;s multiplier grows at each step.</source>
        <translation>Llama 4 का attn_scale (Llama 4 में 0.1): हर स्टेप पर क्वेरी का गुणक कितना बढ़ता है।</translation>
    </message>
    <message>
        <source>Llama 4&apos;s floor_scale: the multiplier steps at every multiple (8,192 in Llama 4; smaller here to see steps within the inspector&apos;s lengths).</source>
        <translation>Llama 4 का floor_scale: गुणक इसके हर गुणज पर एक स्टेप बढ़ता है (Llama 4 में 8,192; यहाँ छोटा, ताकि इंस्पेक्टर की लंबाइयों में स्टेप्स दिखें)।</translation>
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
        <translation>{rows} पंक्तियों की सीडेड टेबल (सीड {seed}), टोकन्स की तरह मानक विचलन 1 पर स्केल की गई</translation>
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
        <translation>मानक रूप −स्लोप·(i − j)</translation>
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
        <translation> ({distinct} अलग शब्दों में से {found} {checkpoint} के {tensor} से, मानक विचलन 1 पर स्केल किए गए</translation>
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
    <name>Claims</name>
    <message>
        <source>NoPE temperature</source>
        <translation>NoPE टेम्परेचर</translation>
    </message>
    <message>
        <source>Cost of positions</source>
        <translation>पोज़िशन्स की लागत</translation>
    </message>
    <message>
        <source>Attention sinks</source>
        <translation>अटेंशन सिंक्स</translation>
    </message>
    <message>
        <source>NoPE ranking</source>
        <translation>NoPE रैंकिंग</translation>
    </message>
    <message>
        <source>NoPE with temperature tuning: Llama 4&apos;s query scale by position and what it does to a NoPE layer&apos;s attention entropy</source>
        <translation>टेम्परेचर ट्यूनिंग के साथ NoPE: पोज़िशन के अनुसार Llama 4 का क्वेरी स्केल, और वह NoPE लेयर की अटेंशन एन्ट्रॉपी पर क्या असर डालता है</translation>
    </message>
    <message>
        <source>The memory and time each position scheme costs, measured, beside the article&apos;s claim about relative encodings</source>
        <translation>हर पोज़िशन स्कीम की मेमोरी और समय की लागत, मापी हुई, रिलेटिव एनकोडिंग्स के बारे में लेख के दावे के साथ</translation>
    </message>
    <message>
        <source>Attention sinks: perplexity with a sliding KV window, with and without the first tokens kept (StreamingLLM)</source>
        <translation>अटेंशन सिंक्स: स्लाइडिंग KV विंडो के साथ पर्प्लेक्सिटी, पहले टोकन्स रखे जाने के साथ और बिना (StreamingLLM)</translation>
    </message>
    <message>
        <source>Which encodings generalise by length: the lab&apos;s ranking beside Kazemnejad et al. 2023&apos;s</source>
        <translation>कौन-सी एनकोडिंग्स लंबाई के साथ सामान्यीकरण करती हैं: लैब की रैंकिंग Kazemnejad et al. 2023 की रैंकिंग के साथ</translation>
    </message>
    <message>
        <source>unknown mode {mode}.</source>
        <translation>अज्ञात मोड {mode}।</translation>
    </message>
    <message>
        <source>the attn_scale and floor_scale set here</source>
        <translation>यहाँ सेट किए गए attn_scale और floor_scale</translation>
    </message>
    <message>
        <source>The open checkpoint has no NoPE layers (Llama 4, SmolLM3 and Command R7B have): seeded random q and k are shown.</source>
        <translation>खुले चेकपॉइंट में NoPE लेयर्स नहीं हैं (Llama 4, SmolLM3 और Command R7B में हैं): सीडेड रैंडम q और k दिखाए गए हैं।</translation>
    </message>
    <message>
        <source>Query scale by position</source>
        <translation>पोज़िशन के अनुसार क्वेरी स्केल</translation>
    </message>
    <message>
        <source>position</source>
        <translation>पोज़िशन</translation>
    </message>
    <message>
        <source>multiplier</source>
        <translation>गुणक</translation>
    </message>
    <message>
        <source>Llama 4 (attn_scale {a:g}, floor_scale {f:g})</source>
        <translation>Llama 4 (attn_scale {a:g}, floor_scale {f:g})</translation>
    </message>
    <message>
        <source>log-n, s = {s:g}</source>
        <translation>log-n, s = {s:g}</translation>
    </message>
    <message>
        <source>NoPE layer {layer}: attention entropy ({source})</source>
        <translation>NoPE लेयर {layer}: अटेंशन एन्ट्रॉपी ({source})</translation>
    </message>
    <message>
        <source>NoPE attention entropy ({source})</source>
        <translation>NoPE अटेंशन एन्ट्रॉपी ({source})</translation>
    </message>
    <message>
        <source>query position</source>
        <translation>क्वेरी पोज़िशन</translation>
    </message>
    <message>
        <source>entropy (nats)</source>
        <translation>एन्ट्रॉपी (nats)</translation>
    </message>
    <message>
        <source>without the scale</source>
        <translation>स्केल के बिना</translation>
    </message>
    <message>
        <source>with the scale</source>
        <translation>स्केल के साथ</translation>
    </message>
    <message>
        <source>uniform over the keys, ln(p + 1)</source>
        <translation>सभी कीज़ पर एकसमान, ln(p + 1)</translation>
    </message>
    <message>
        <source>; steps at every multiple of floor_scale (dotted lines), parameters from {source}.</source>
        <translation>; floor_scale के हर गुणज पर स्टेप (बिंदुदार रेखाएँ), पैरामीटर्स {source} से।</translation>
    </message>
    <message>
        <source>no cost measurement yet: press Measure here (a minute or two), or run `peapp cost --json &gt; cost.json` and give that file.</source>
        <translation>अभी कोई लागत माप नहीं: यहीं मापें दबाएँ (एक-दो मिनट), या `peapp cost --json &gt; cost.json` चलाकर वह फ़ाइल दें।</translation>
    </message>
    <message>
        <source>{path} is not a saved cost measurement (peapp cost --json).</source>
        <translation>{path} सहेजा हुआ लागत माप (peapp cost --json) नहीं है।</translation>
    </message>
    <message>
        <source>Peak memory of a full forward (lab model)</source>
        <translation>पूरे फ़ॉरवर्ड की अधिकतम मेमोरी (लैब मॉडल)</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>टोकन्स</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>Time per generated token with a KV cache (lab model)</source>
        <translation>KV कैश के साथ हर जनरेट किए गए टोकन का समय (लैब मॉडल)</translation>
    </message>
    <message>
        <source>tokens in the cache</source>
        <translation>कैश में टोकन्स</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>{scheme} (predicted, not run)</source>
        <translation>{scheme} (अनुमानित, चलाया नहीं गया)</translation>
    </message>
    <message>
        <source>Claim: {claim}</source>
        <translation>दावा: {claim}</translation>
    </message>
    <message>
        <source>Measured: {verdict}</source>
        <translation>मापा गया: {verdict}</translation>
    </message>
    <message>
        <source>choose a saved streaming probe: run `peapp probe streaming MODEL --json &gt; sinks.json` and give that file, or run the experiment on the opened model in Probes &gt; Attention sinks (streaming).</source>
        <translation>सहेजा गया स्ट्रीमिंग प्रोब चुनें: `peapp probe streaming MODEL --json &gt; sinks.json` चलाएँ और वह फ़ाइल दें, या यही प्रयोग खुले मॉडल पर प्रोब &gt; अटेंशन सिंक्स (स्ट्रीमिंग) में चलाएँ।</translation>
    </message>
    <message>
        <source>Perplexity per {bin} positions: KV window {w}, {k} sinks</source>
        <translation>हर {bin} पोज़िशन्स पर पर्प्लेक्सिटी: KV विंडो {w}, {k} सिंक्स</translation>
    </message>
    <message>
        <source>perplexity</source>
        <translation>पर्प्लेक्सिटी</translation>
    </message>
    <message>
        <source>full context</source>
        <translation>पूरा कॉन्टेक्स्ट</translation>
    </message>
    <message>
        <source>window only</source>
        <translation>केवल विंडो</translation>
    </message>
    <message>
        <source>window + first tokens (sinks)</source>
        <translation>विंडो + पहले टोकन्स (सिंक्स)</translation>
    </message>
    <message>
        <source>Positions inside the cache as StreamingLLM assigns them (sinks 0…K−1, window after them). Reference, drawn as the paper&apos;s (another model and text): {citation}: perplexity {full} full, {window} window, {sinks} with 4 sinks.</source>
        <translation>कैश के भीतर पोज़िशन्स वैसे ही जैसे StreamingLLM देता है (सिंक्स 0…K−1, उनके बाद विंडो)। संदर्भ, पेपर के रूप में दिखाया गया (दूसरा मॉडल और टेक्स्ट): {citation}: पर्प्लेक्सिटी पूरा {full}, विंडो {window}, 4 सिंक्स के साथ {sinks}।</translation>
    </message>
    <message>
        <source>choose the folder of a ranking run: `peapp lab --preset ranking -o FOLDER` (a task per subfolder).</source>
        <translation>रैंकिंग रन का फ़ोल्डर चुनें: `peapp lab --preset ranking -o FOLDER` (हर टास्क का एक सबफ़ोल्डर)।</translation>
    </message>
    <message>
        <source>{folder} holds no finished ranking runs.</source>
        <translation>{folder} में कोई पूरा हुआ रैंकिंग रन नहीं है।</translation>
    </message>
    <message>
        <source>absolute</source>
        <translation>एब्सोल्यूट</translation>
    </message>
    <message>
        <source>sinusoidal</source>
        <translation>साइनुसॉइडल</translation>
    </message>
    <message>
        <source>Exact match past the training length, per task</source>
        <translation>ट्रेनिंग लंबाई से आगे एक्ज़ैक्ट मैच, हर टास्क के लिए</translation>
    </message>
    <message>
        <source>encoding</source>
        <translation>एनकोडिंग</translation>
    </message>
    <message>
        <source>exact match</source>
        <translation>एक्ज़ैक्ट मैच</translation>
    </message>
    <message>
        <source>Mean rank over the tasks (1 = best)</source>
        <translation>टास्क्स पर औसत रैंक (1 = सबसे अच्छा)</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>रैंक</translation>
    </message>
    <message>
        <source>here</source>
        <translation>यहाँ</translation>
    </message>
    <message>
        <source>Kazemnejad et al. 2023 (the paper&apos;s)</source>
        <translation>Kazemnejad et al. 2023 (पेपर का)</translation>
    </message>
    <message>
        <source>The papers&apos; results are drawn as the papers&apos;: another scale and setting ({setting}); Ruoss et al. 2023: {ruoss}</source>
        <translation>पेपर्स के परिणाम पेपर्स के रूप में दिखाए गए हैं: दूसरा पैमाना और सेटिंग ({setting}); Ruoss et al. 2023: {ruoss}</translation>
    </message>
    <message>
        <source>the saved cost measurement is damaged ({what}); run peapp cost again.</source>
        <translation>सहेजा हुआ लागत माप ख़राब है ({what}); peapp cost फिर से चलाएँ।</translation>
    </message>
    <message>
        <source>no folder to save the cost measurement in.</source>
        <translation>लागत माप सहेजने के लिए कोई फ़ोल्डर नहीं।</translation>
    </message>
</context>
<context>
    <name>Lab</name>
    <message>
        <source>exact match (share of sequences)</source>
        <translation>पूरा मिलान (सीक्वेंस का हिस्सा)</translation>
    </message>
    <message>
        <source>perplexity</source>
        <translation>पर्प्लेक्सिटी</translation>
    </message>
    <message>
        <source>exact match</source>
        <translation>पूरा मिलान</translation>
    </message>
    <message>
        <source>copy</source>
        <translation>कॉपी</translation>
    </message>
    <message>
        <source>reverse</source>
        <translation>उलटना</translation>
    </message>
    <message>
        <source>recall</source>
        <translation>रिकॉल</translation>
    </message>
    <message>
        <source>lm</source>
        <translation>कैरेक्टर LM</translation>
    </message>
    <message>
        <source>sort</source>
        <translation>सॉर्ट</translation>
    </message>
    <message>
        <source>addition</source>
        <translation>जोड़</translation>
    </message>
    <message>
        <source>absolute</source>
        <translation>एब्सोल्यूट</translation>
    </message>
    <message>
        <source>sinusoidal</source>
        <translation>साइनुसॉइडल</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>चुनें…</translation>
    </message>
    <message>
        <source>Choose the results folder (a folder from `peapp lab -o` opens too)</source>
        <translation>नतीजों का फ़ोल्डर चुनें (कमांड लाइन की ट्रेनिंग लैब से बना फ़ोल्डर भी खुलता है)</translation>
    </message>
    <message>
        <source>Run &amp;preset</source>
        <translation>प्रीसेट चलाएँ (&amp;P)</translation>
    </message>
    <message>
        <source>Train the chosen preset (its own tasks, encodings and lengths, not the grid above) into the results folder, a subfolder per task, then rank the encodings beside the paper&apos;s ranking (also in Measured claims)</source>
        <translation>चुना हुआ प्रीसेट (उसके अपने टास्क, एनकोडिंग और लंबाइयाँ, ऊपर का ग्रिड नहीं) नतीजों के फ़ोल्डर में ट्रेन करें, हर टास्क का एक सबफ़ोल्डर, फिर एनकोडिंग्स को पेपर की रैंकिंग के साथ रैंक करें (मापे गए दावे पैनल में भी)</translation>
    </message>
    <message>
        <source>&amp;Start training</source>
        <translation>ट्रेनिंग शुरू करें (&amp;S)</translation>
    </message>
    <message>
        <source>Train every encoding × seed not yet finished in the results folder, in background processes (the estimate is measured first)</source>
        <translation>नतीजों के फ़ोल्डर में जो एनकोडिंग × सीड अभी पूरे नहीं हुए, उन सबको बैकग्राउंड प्रोसेस में ट्रेन करें (पहले समय का अनुमान मापा जाता है)</translation>
    </message>
    <message>
        <source>Cancel &amp;training</source>
        <translation>ट्रेनिंग रद्द करें (&amp;T)</translation>
    </message>
    <message>
        <source>Stop at the next step (Esc in the window too, while the status bar shows the training); finished runs stay in the folder and a new Start skips them</source>
        <translation>अगले स्टेप पर रोकें (जब तक स्टेटस बार में ट्रेनिंग दिखती है, विंडो में Esc से भी); पूरे हुए रन फ़ोल्डर में रहते हैं और अगली बार शुरू करने पर छोड़ दिए जाते हैं</translation>
    </message>
    <message>
        <source>Ready. Start trains the grid; the figure is drawn from the results folder.</source>
        <translation>तैयार। शुरू करें ग्रिड को ट्रेन करता है; चित्र नतीजों के फ़ोल्डर से बनता है।</translation>
    </message>
    <message>
        <source>loss per run (live)</source>
        <translation>हर रन का लॉस (लाइव)</translation>
    </message>
    <message>
        <source>step</source>
        <translation>स्टेप</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>लॉस</translation>
    </message>
    <message>
        <source>Hover over the figure for its numbers.</source>
        <translation>संख्याएँ देखने के लिए चित्र पर माउस ले जाएँ।</translation>
    </message>
    <message>
        <source>no finished runs in this folder yet</source>
        <translation>इस फ़ोल्डर में अभी कोई पूरा रन नहीं</translation>
    </message>
    <message>
        <source>Results folder {folder}: nothing trained yet. Choose the grid above and press Start; each run is saved there as it finishes.</source>
        <translation>नतीजों का फ़ोल्डर {folder}: अभी कुछ ट्रेन नहीं हुआ। ऊपर ग्रिड चुनें और शुरू करें दबाएँ; हर रन पूरा होते ही वहाँ सहेजा जाता है।</translation>
    </message>
    <message>
        <source>{n} run</source>
        <translation>{n} रन</translation>
    </message>
    <message>
        <source>{n} runs</source>
        <translation>{n} रन</translation>
    </message>
    <message>
        <source>{metric} — task {task}, {runs}</source>
        <translation>{metric} — टास्क {task}, {runs}</translation>
    </message>
    <message>
        <source>, {n} seeds each</source>
        <translation>, हर एक {n} सीड</translation>
    </message>
    <message>
        <source>evaluation length (tokens; dashed: trained ≤ {n})</source>
        <translation>मूल्यांकन लंबाई (टोकन्स; डैश: ट्रेनिंग ≤ {n})</translation>
    </message>
    <message>
        <source>evaluation length (tokens)</source>
        <translation>मूल्यांकन लंबाई (टोकन्स)</translation>
    </message>
    <message>
        <source>value</source>
        <translation>मान</translation>
    </message>
    <message>
        <source>encoding (best mean rank first)</source>
        <translation>एनकोडिंग (सबसे अच्छी औसत रैंक पहले)</translation>
    </message>
    <message>
        <source>exact match past the training length</source>
        <translation>ट्रेनिंग लंबाई से आगे एक्ज़ैक्ट मैच</translation>
    </message>
    <message>
        <source>preset: exact match past the training length, per task</source>
        <translation>प्रीसेट: ट्रेनिंग लंबाई से आगे एक्ज़ैक्ट मैच, हर टास्क के लिए</translation>
    </message>
    <message>
        <source>Preset {preset}, results folder {folder} (a subfolder per task: choose one to draw its curves).</source>
        <translation>प्रीसेट {preset}, नतीजों का फ़ोल्डर {folder} (हर टास्क का एक सबफ़ोल्डर: उसके कर्व बनाने के लिए एक चुनें)।</translation>
    </message>
    <message>
        <source>mean rank</source>
        <translation>औसत रैंक</translation>
    </message>
    <message>
        <source>References: {citations}</source>
        <translation>संदर्भ: {citations}</translation>
    </message>
    <message>
        <source>Cells: exact match past the training length, the mean over those lengths.</source>
        <translation>खाने: ट्रेनिंग लंबाई से आगे एक्ज़ैक्ट मैच, उन लंबाइयों पर औसत।</translation>
    </message>
    <message>
        <source>Reference, at another scale and setting ({setting}): {citation}</source>
        <translation>संदर्भ, दूसरे पैमाने और सेटिंग पर ({setting}): {citation}</translation>
    </message>
    <message>
        <source> ({n} seeds)</source>
        <translation> ({n} सीड)</translation>
    </message>
    <message>
        <source>cannot</source>
        <translation>संभव नहीं</translation>
    </message>
    <message>
        <source>This scheme has no position for this length (a learned table is as long as training): the run is not scored, not counted as 0.</source>
        <translation>इस स्कीम में इस लंबाई के लिए कोई पोज़िशन नहीं है (लर्न्ड टेबल ट्रेनिंग जितनी ही लंबी होती है): इस रन को अंक नहीं दिए जाते, इसे 0 नहीं गिना जाता।</translation>
    </message>
    <message>
        <source>Dotted ▲: {citation} — {setting}; the paper&apos;s numbers at the paper&apos;s scale, placed at the same multiples of the training length, not a prediction for these tiny models.</source>
        <translation>बिंदुदार ▲: {citation} — {setting}; पेपर के आँकड़े पेपर के पैमाने पर, ट्रेनिंग लंबाई के उन्हीं गुणजों पर रखे गए, इन छोटे मॉडलों के लिए कोई भविष्यवाणी नहीं।</translation>
    </message>
    <message>
        <source>{citation}: {finding} (a trend on their tasks, for comparison with what is measured here).</source>
        <translation>{citation}: {finding} (उनके कामों पर एक रुझान, यहाँ मापे गए से तुलना के लिए)।</translation>
    </message>
    <message>
        <source>the best is {encoding} ({value} exact match at best)</source>
        <translation>सबसे अच्छा {encoding} है (अधिकतम {value} पूरा मिलान)</translation>
    </message>
    <message>
        <source>no encoding got a sequence right</source>
        <translation>किसी एनकोडिंग ने एक भी सीक्वेंस सही नहीं किया</translation>
    </message>
    <message>
        <source>Measured here: past the training length {found}. This is what these runs measured, whatever the article or the papers say.</source>
        <translation>यहाँ मापा गया: ट्रेनिंग लंबाई के बाद {found}। यह वही है जो इन रनों ने मापा, लेख या पेपर चाहे कुछ भी कहें।</translation>
    </message>
    <message>
        <source>Results folder {folder}. Band: min–max over seeds; &apos;cannot&apos;: the scheme has no position there. Models are saved as checkpoints (File &gt; Open a run&apos;s folder).</source>
        <translation>नतीजों का फ़ोल्डर {folder}। पट्टी: सीड्स पर न्यूनतम–अधिकतम; &apos;संभव नहीं&apos;: वहाँ स्कीम के पास कोई पोज़िशन नहीं। मॉडल चेकपॉइंट के रूप में सहेजे जाते हैं (फ़ाइल &gt; किसी रन का फ़ोल्डर खोलें)।</translation>
    </message>
    <message>
        <source>step {step}, loss {loss}</source>
        <translation>स्टेप {step}, लॉस {loss}</translation>
    </message>
    <message>
        <source>length {length}: {values}</source>
        <translation>लंबाई {length}: {values}</translation>
    </message>
    <message>
        <source>Results folder</source>
        <translation>नतीजों का फ़ोल्डर</translation>
    </message>
    <message>
        <source>Measuring a few training steps per encoding for the time estimate…</source>
        <translation>समय के अनुमान के लिए हर एनकोडिंग के कुछ ट्रेनिंग स्टेप्स मापे जा रहे हैं…</translation>
    </message>
    <message>
        <source>Cancelling: the runs stop at their next step; finished runs are kept.</source>
        <translation>रद्द किया जा रहा है: रन अपने अगले स्टेप पर रुकेंगे; पूरे हुए रन रखे जाते हैं।</translation>
    </message>
    <message>
        <source>The Training lab is training ({done} of {total} runs finished). Finished runs are kept in the results folder; the runs in progress are lost.</source>
        <translation>ट्रेनिंग लैब ट्रेन कर रही है ({total} में से {done} रन पूरे)। पूरे हुए रन नतीजों के फ़ोल्डर में रहते हैं; चल रहे रन खो जाएँगे।</translation>
    </message>
    <message>
        <source>This grid is estimated to take {minutes} minutes on this machine now. Train it anyway? (Fewer seeds, steps or encodings make it shorter.)</source>
        <translation>अनुमान है कि इस मशीन पर अभी यह ग्रिड {minutes} मिनट लेगा। फिर भी ट्रेन करें? (कम सीड्स, स्टेप्स या एनकोडिंग्स इसे छोटा करते हैं।)</translation>
    </message>
    <message>
        <source>Not started.</source>
        <translation>शुरू नहीं किया गया।</translation>
    </message>
    <message>
        <source>Training {runs} runs; estimated {duration}.</source>
        <translation>{runs} रन ट्रेन हो रहे हैं; अनुमानित समय {duration}।</translation>
    </message>
    <message>
        <source>Preset done in {duration}: {runs} runs.</source>
        <translation>प्रीसेट {duration} में पूरा: {runs} रन।</translation>
    </message>
    <message>
        <source>Done in {duration}: {finished} trained, {skipped} already in the folder</source>
        <translation>{duration} में पूरा: {finished} ट्रेन हुए, {skipped} पहले से फ़ोल्डर में</translation>
    </message>
    <message>
        <source>, {n} failed ({reason})</source>
        <translation>, {n} विफल ({reason})</translation>
    </message>
    <message>
        <source>{sentence}.</source>
        <translation>{sentence}।</translation>
    </message>
    <message>
        <source>Stopped: {message}</source>
        <translation>रुका: {message}</translation>
    </message>
    <message>
        <source>Cancelled; the runs that finished are kept in the folder (Start again skips them).</source>
        <translation>रद्द किया गया; पूरे हुए रन फ़ोल्डर में रखे गए हैं (दोबारा शुरू करने पर वे छोड़ दिए जाते हैं)।</translation>
    </message>
    <message>
        <source>Training: {done} of {total} runs finished, {percent} % of all steps</source>
        <translation>ट्रेनिंग: {total} में से {done} रन पूरे, सभी स्टेप्स का {percent} %</translation>
    </message>
    <message>
        <source>, about {duration} left</source>
        <translation>, लगभग {duration} बाक़ी</translation>
    </message>
    <message>
        <source>Training lab: preset {preset}</source>
        <translation>ट्रेनिंग लैब: प्रीसेट {preset}</translation>
    </message>
    <message>
        <source>Training lab (no runs)</source>
        <translation>ट्रेनिंग लैब (कोई रन नहीं)</translation>
    </message>
    <message>
        <source>Training lab: {metric} vs length, task {task}, trained ≤ {trained}</source>
        <translation>ट्रेनिंग लैब: लंबाई के अनुसार {metric}, टास्क {task}, ट्रेनिंग ≤ {trained}</translation>
    </message>
    <message>
        <source>encoding</source>
        <translation>एनकोडिंग</translation>
    </message>
    <message>
        <source>length {n}</source>
        <translation>लंबाई {n}</translation>
    </message>
</context>
<context>
    <name>LabOptions</name>
    <message>
        <source>NoPE + Llama 4 temperature</source>
        <translation>NoPE + Llama 4 टेम्परेचर</translation>
    </message>
    <message>
        <source>NoPE + log-n scaling</source>
        <translation>NoPE + log-n स्केलिंग</translation>
    </message>
    <message>
        <source>NoPE, randomised positions</source>
        <translation>NoPE, रैंडम पोज़िशन्स</translation>
    </message>
    <message>
        <source>Sinusoidal, randomised positions</source>
        <translation>साइनुसॉइडल, रैंडम पोज़िशन्स</translation>
    </message>
    <message>
        <source>Learned absolute, randomised positions</source>
        <translation>लर्न्ड एब्सोल्यूट, रैंडम पोज़िशन्स</translation>
    </message>
    <message>
        <source>T5 relative bias, randomised positions</source>
        <translation>T5 रिलेटिव बायस, रैंडम पोज़िशन्स</translation>
    </message>
    <message>
        <source>RoPE, randomised positions</source>
        <translation>RoPE, रैंडम पोज़िशन्स</translation>
    </message>
    <message>
        <source>ALiBi, randomised positions</source>
        <translation>ALiBi, रैंडम पोज़िशन्स</translation>
    </message>
    <message>
        <source>NoPE + Llama 4 temperature, randomised positions</source>
        <translation>NoPE + Llama 4 टेम्परेचर, रैंडम पोज़िशन्स</translation>
    </message>
    <message>
        <source>NoPE + log-n scaling, randomised positions</source>
        <translation>NoPE + log-n स्केलिंग, रैंडम पोज़िशन्स</translation>
    </message>
    <message>
        <source>no encodings given; use &apos;all&apos; or a comma list such as rope,alibi,rope-yarn.</source>
        <translation>कोई एनकोडिंग नहीं दी गई; &apos;all&apos; या कॉमा से अलग सूची दें, जैसे rope,alibi,rope-yarn।</translation>
    </message>
    <message>
        <source>unknown encoding {bad}; choose from all, {allowed} (any of them with +rand: randomised positions).</source>
        <translation>अज्ञात एनकोडिंग {bad}; all, {allowed} में से चुनें (इनमें से कोई भी +rand के साथ: रैंडम पोज़िशन्स)।</translation>
    </message>
    <message>
        <source>evaluation length {value} is not a whole number; give a comma list such as 10,20,30,40.</source>
        <translation>मूल्यांकन लंबाई {value} पूर्ण संख्या नहीं है; कॉमा से अलग सूची दें, जैसे 10,20,30,40।</translation>
    </message>
    <message>
        <source>evaluation length {value} is outside 1…{limit}.</source>
        <translation>मूल्यांकन लंबाई {value} सीमा 1…{limit} से बाहर है।</translation>
    </message>
    <message>
        <source>give at least one evaluation length, e.g. 10,20,30,40.</source>
        <translation>कम से कम एक मूल्यांकन लंबाई दें, जैसे 10,20,30,40।</translation>
    </message>
    <message>
        <source>{n} s</source>
        <translation>{n} सेकंड</translation>
    </message>
    <message>
        <source>{n} min</source>
        <translation>{n} मिनट</translation>
    </message>
    <message>
        <source>{n} h</source>
        <translation>{n} घंटे</translation>
    </message>
</context>
<context>
    <name>LabPanel</name>
    <message>
        <source>Copy</source>
        <translation>कॉपी</translation>
    </message>
    <message>
        <source>Reverse</source>
        <translation>उलटना</translation>
    </message>
    <message>
        <source>Associative recall</source>
        <translation>एसोसिएटिव रिकॉल</translation>
    </message>
    <message>
        <source>Character LM (bundled text)</source>
        <translation>कैरेक्टर LM (साथ आया टेक्स्ट)</translation>
    </message>
    <message>
        <source>Sort</source>
        <translation>सॉर्ट</translation>
    </message>
    <message>
        <source>Addition</source>
        <translation>जोड़</translation>
    </message>
    <message>
        <source>task</source>
        <translation>टास्क</translation>
    </message>
    <message>
        <source>Copy, reverse and recall are scored by exact match per sequence; the character language model by perplexity on the bundled text</source>
        <translation>कॉपी, उलटना और रिकॉल को हर सीक्वेंस के पूरे मिलान से आँका जाता है; कैरेक्टर लैंग्वेज मॉडल को साथ आए टेक्स्ट पर पर्प्लेक्सिटी से</translation>
    </message>
    <message>
        <source>encodings</source>
        <translation>एनकोडिंग्स</translation>
    </message>
    <message>
        <source>&apos;all&apos;, or a comma list of nope, sinusoidal, learned, t5, rope, alibi, rope-pi, rope-ntk, rope-yarn, nope-temp, nope-logn (rope-pi / rope-ntk / rope-yarn rescale the trained RoPE model at evaluation, without retraining; nope-temp: NoPE with Llama 4&apos;s attention temperature, nope-logn: with log-n scaling; any trained one with +rand: randomised positions, Ruoss et al. 2023)</source>
        <translation>&apos;all&apos;, या nope, sinusoidal, learned, t5, rope, alibi, rope-pi, rope-ntk, rope-yarn, nope-temp, nope-logn की कॉमा सूची (rope-pi / rope-ntk / rope-yarn ट्रेन किए गए RoPE मॉडल को इवैल्युएशन के समय, दोबारा ट्रेनिंग के बिना, रीस्केल करते हैं; nope-temp: Llama 4 के अटेंशन टेम्परेचर के साथ NoPE, nope-logn: log-n स्केलिंग के साथ; ट्रेन की गई कोई भी एनकोडिंग +rand के साथ: रैंडम पोज़िशन्स, Ruoss et al. 2023)</translation>
    </message>
    <message>
        <source>training length</source>
        <translation>ट्रेनिंग लंबाई</translation>
    </message>
    <message>
        <source>Training sequences are drawn with lengths up to this</source>
        <translation>ट्रेनिंग सीक्वेंस इस लंबाई तक के बनाए जाते हैं</translation>
    </message>
    <message>
        <source>evaluation lengths</source>
        <translation>मूल्यांकन लंबाइयाँ</translation>
    </message>
    <message>
        <source>Comma list of lengths to evaluate at (past the training length is extrapolation)</source>
        <translation>जिन लंबाइयों पर मूल्यांकन करना है, कॉमा से अलग (ट्रेनिंग लंबाई के बाद एक्सट्रैपोलेशन है)</translation>
    </message>
    <message>
        <source>seeds</source>
        <translation>सीड्स</translation>
    </message>
    <message>
        <source>Runs per encoding (the band spans them)</source>
        <translation>हर एनकोडिंग के रन (पट्टी इन सब पर फैली है)</translation>
    </message>
    <message>
        <source>layers</source>
        <translation>लेयर्स</translation>
    </message>
    <message>
        <source>Transformer layers</source>
        <translation>ट्रांसफ़ॉर्मर लेयर्स</translation>
    </message>
    <message>
        <source>Model width</source>
        <translation>मॉडल की चौड़ाई</translation>
    </message>
    <message>
        <source>heads</source>
        <translation>हेड्स</translation>
    </message>
    <message>
        <source>Attention heads (d_model / heads even)</source>
        <translation>अटेंशन हेड्स (d_model / हेड्स सम हो)</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>स्टेप्स</translation>
    </message>
    <message>
        <source>Training steps per run (NoPE gets 2× this: it learns more slowly)</source>
        <translation>हर रन के ट्रेनिंग स्टेप्स (NoPE को इसके 2× मिलते हैं: वह धीरे सीखता है)</translation>
    </message>
    <message>
        <source>results folder</source>
        <translation>नतीजों का फ़ोल्डर</translation>
    </message>
    <message>
        <source>Where runs are saved and read from (empty: the user data folder, …/peapp/lab); a folder from `peapp lab -o` opens here too</source>
        <translation>रन कहाँ सहेजे और पढ़े जाते हैं (ख़ाली: यूज़र डेटा फ़ोल्डर, …/peapp/lab); कमांड लाइन की ट्रेनिंग लैब से बना फ़ोल्डर भी यहाँ खुलता है</translation>
    </message>
    <message>
        <source>cluster</source>
        <translation>क्लस्टर</translation>
    </message>
    <message>
        <source>Where the grid runs: empty for local processes, &apos;local&apos; for a Ray started on this machine, or a Ray cluster&apos;s address (ray://head:10001); needs the cluster extra (pip install -e &quot;.[cluster]&quot;). Results come back into the results folder</source>
        <translation>ग्रिड कहाँ चलती है: ख़ाली हो तो इसी मशीन की प्रक्रियाओं में, &apos;local&apos; हो तो इस मशीन पर शुरू किए गए Ray पर, या किसी Ray क्लस्टर का पता (ray://head:10001); इसके लिए cluster एक्स्ट्रा चाहिए (pip install -e &quot;.[cluster]&quot;)। नतीजे नतीजों के फ़ोल्डर में लौट आते हैं</translation>
    </message>
    <message>
        <source>preset</source>
        <translation>प्रीसेट</translation>
    </message>
    <message>
        <source>Run preset trains a published comparison with its own tasks, encodings and lengths into the results folder (a subfolder per task), then ranks the encodings beside the paper&apos;s ranking</source>
        <translation>प्रीसेट चलाएँ एक प्रकाशित तुलना को उसके अपने टास्क, एनकोडिंग और लंबाइयों के साथ नतीजों के फ़ोल्डर में ट्रेन करता है (हर टास्क का एक सबफ़ोल्डर), फिर एनकोडिंग्स को पेपर की रैंकिंग के साथ रैंक करता है</translation>
    </message>
    <message>
        <source>+ randomised positions</source>
        <translation>+ रैंडम पोज़िशन्स</translation>
    </message>
    <message>
        <source>Run preset also trains every encoding with randomised positions (Ruoss et al. 2023)</source>
        <translation>प्रीसेट चलाएँ हर एनकोडिंग को रैंडम पोज़िशन्स के साथ भी ट्रेन करता है (Ruoss et al. 2023)</translation>
    </message>
    <message>
        <source>d_model {d_model} / {heads} heads must be a whole, even head width; change d_model or the head count.</source>
        <translation>d_model {d_model} / {heads} हेड्स से पूरी, सम हेड-चौड़ाई आनी चाहिए; d_model या हेड्स की संख्या बदलें।</translation>
    </message>
</context>
<context>
    <name>LabPresets</name>
    <message>
        <source>decoder-only, about 100 M parameters, synthetic tasks (copy, reverse, addition, sorting, …) trained on short instances and tested on longer ones</source>
        <translation>केवल-डिकोडर, लगभग 10 करोड़ पैरामीटर्स, सिंथेटिक टास्क्स (कॉपी, उलटना, जोड़, सॉर्ट, …) छोटे उदाहरणों पर ट्रेन और लंबे उदाहरणों पर टेस्ट</translation>
    </message>
    <message>
        <source>NoPE ranks best on average over the tasks, ahead of T5&apos;s relative bias, ALiBi, RoPE and absolute positions.</source>
        <translation>टास्क्स पर औसतन NoPE सबसे ऊपर रहती है, T5 के रिलेटिव बायस, ALiBi, RoPE और एब्सोल्यूट पोज़िशन्स से आगे।</translation>
    </message>
    <message>
        <source>encoder models on 15 algorithmic tasks, trained on lengths ≤ 40, tested on 41 … 500</source>
        <translation>15 एल्गोरिदमिक टास्क्स पर एनकोडर मॉडल, लंबाई ≤ 40 पर ट्रेन, 41 … 500 पर टेस्ट</translation>
    </message>
    <message>
        <source>randomised positions raise test accuracy on unseen lengths by 12.0 % on average over 15 tasks.</source>
        <translation>रैंडम पोज़िशन्स अनदेखी लंबाइयों पर टेस्ट सटीकता को 15 टास्क्स पर औसतन 12.0 % बढ़ाती हैं।</translation>
    </message>
    <message>
        <source>Length generalisation ranking (Kazemnejad et al. 2023)</source>
        <translation>लंबाई सामान्यीकरण रैंकिंग (Kazemnejad et al. 2023)</translation>
    </message>
    <message>
        <source>NoPE with a temperature (Llama 4, log-n)</source>
        <translation>टेम्परेचर के साथ NoPE (Llama 4, log-n)</translation>
    </message>
    <message>
        <source>unknown preset {name}; choose from {allowed}.</source>
        <translation>अज्ञात प्रीसेट {name}; {allowed} में से चुनें।</translation>
    </message>
    <message>
        <source>Nothing to rank: no encoding learned {tasks} at the training length (exact match below {share:.0%}); train longer.</source>
        <translation>रैंक करने को कुछ नहीं: कोई एनकोडिंग ट्रेनिंग लंबाई पर {tasks} नहीं सीख पाई (एक्ज़ैक्ट मैच {share:.0%} से कम); अधिक देर ट्रेन करें।</translation>
    </message>
    <message>
        <source>Nothing finished to rank yet.</source>
        <translation>रैंक करने के लिए अभी कुछ पूरा नहीं हुआ।</translation>
    </message>
    <message>
        <source>Local ranking past the training length: {order}; NoPE was not run, so Kazemnejad et al.&apos;s finding ({paper}) is not tested.</source>
        <translation>ट्रेनिंग लंबाई से आगे स्थानीय रैंकिंग: {order}; NoPE नहीं चलाई गई, इसलिए Kazemnejad et al. का निष्कर्ष ({paper}) जाँचा नहीं गया।</translation>
    </message>
    <message>
        <source>Agrees only in part with Kazemnejad et al. 2023: NoPE shares the best mean rank with {tied} here (local order {order}; the paper&apos;s {paper}).</source>
        <translation>Kazemnejad et al. 2023 से केवल आंशिक रूप से सहमत: यहाँ NoPE सबसे अच्छी औसत रैंक {tied} के साथ साझा करती है (स्थानीय क्रम {order}; पेपर का {paper})।</translation>
    </message>
    <message>
        <source>Agrees with Kazemnejad et al. 2023: NoPE ranks best on average here too (local order {order}; the paper&apos;s {paper}).</source>
        <translation>Kazemnejad et al. 2023 से सहमत: यहाँ भी NoPE औसतन सबसे ऊपर है (स्थानीय क्रम {order}; पेपर का {paper})।</translation>
    </message>
    <message>
        <source>Does not agree with Kazemnejad et al. 2023: NoPE is not best on average here (local order {order}; the paper&apos;s {paper}).</source>
        <translation>Kazemnejad et al. 2023 से सहमत नहीं: यहाँ NoPE औसतन सबसे ऊपर नहीं है (स्थानीय क्रम {order}; पेपर का {paper})।</translation>
    </message>
    <message>
        <source>Left out: {tasks}, which no encoding learned at the training length (exact match below {share:.0%}).</source>
        <translation>छोड़े गए: {tasks}, जिन्हें कोई एनकोडिंग ट्रेनिंग लंबाई पर नहीं सीख पाई (एक्ज़ैक्ट मैच {share:.0%} से कम)।</translation>
    </message>
    <message>
        <source>Randomised positions change the mean exact match past the training length by {gain:+.1f} points here (Ruoss et al. 2023: +12.0 % over 15 tasks).</source>
        <translation>यहाँ रैंडम पोज़िशन्स ट्रेनिंग लंबाई से आगे औसत एक्ज़ैक्ट मैच को {gain:+.1f} अंक बदलती हैं (Ruoss et al. 2023: 15 टास्क्स पर +12.0 %)।</translation>
    </message>
    <message>
        <source>copy</source>
        <translation>कॉपी</translation>
    </message>
    <message>
        <source>reverse</source>
        <translation>उलटना</translation>
    </message>
    <message>
        <source>addition</source>
        <translation>जोड़</translation>
    </message>
    <message>
        <source>sort</source>
        <translation>सॉर्ट</translation>
    </message>
    <message>
        <source>Nothing to compare yet: NoPE, NoPE + Llama 4 temperature and NoPE + log-n have not all finished a task.</source>
        <extracomment>the temperature preset&apos;s references: where each scale comes from (its verdict is its own, not Kazemnejad et al.&apos;s ranking, which compares encodings, not NoPE with and without a scale)</extracomment>
        <translation>अभी तुलना के लिए कुछ नहीं: NoPE, NoPE + Llama 4 टेम्परेचर और NoPE + log-n, तीनों ने अभी कोई टास्क पूरा नहीं किया है।</translation>
    </message>
    <message>
        <source>Past the training length, mean exact match over {tasks}: NoPE {nope:.2f}, with Llama 4&apos;s temperature {temp:.2f} ({temp_gain:+.1f} points), with log-n {logn:.2f} ({logn_gain:+.1f} points).</source>
        <translation>ट्रेनिंग लंबाई से आगे, {tasks} पर औसत एक्ज़ैक्ट मैच: NoPE {nope:.2f}, Llama 4 के टेम्परेचर के साथ {temp:.2f} ({temp_gain:+.1f} पॉइंट), log-n के साथ {logn:.2f} ({logn_gain:+.1f} पॉइंट)।</translation>
    </message>
    <message>
        <source>{best} helps NoPE past the training length here.</source>
        <translation>यहाँ {best} ट्रेनिंग लंबाई से आगे NoPE की मदद करता है।</translation>
    </message>
    <message>
        <source>Neither scale helps NoPE past the training length here by a point or more.</source>
        <translation>यहाँ कोई भी स्केल ट्रेनिंग लंबाई से आगे NoPE की एक पॉइंट या उससे ज़्यादा मदद नहीं करता।</translation>
    </message>
    <message>
        <source>All three are near zero past the training length: at this size none generalises by length, so the comparison says little.</source>
        <translation>ट्रेनिंग लंबाई से आगे तीनों लगभग शून्य हैं: इस आकार पर कोई भी लंबाई के हिसाब से जनरलाइज़ नहीं करता, इसलिए यह तुलना कम बताती है।</translation>
    </message>
</context>
<context>
    <name>LabReferences</name>
    <message>
        <source>WikiText-103 language model trained on 512-token inputs</source>
        <translation>512-टोकन इनपुट पर ट्रेन किया गया WikiText-103 लैंग्वेज मॉडल</translation>
    </message>
    <message>
        <source>decoder-only models on synthetic reasoning and copy-like tasks, evaluated past the training length</source>
        <translation>कृत्रिम तर्क और कॉपी जैसे कामों पर केवल-डिकोडर मॉडल, ट्रेनिंग लंबाई के बाद आँके गए</translation>
    </message>
    <message>
        <source>NoPE and T5&apos;s relative bias generalise to longer inputs best, about equally; ALiBi follows; RoPE and absolute (learned) positions do about as poorly as each other.</source>
        <translation>NoPE और T5 का रिलेटिव बायस लंबे इनपुट पर सबसे अच्छा, लगभग बराबर, सामान्यीकरण करते हैं; उसके बाद ALiBi; RoPE और एब्सोल्यूट (लर्न्ड) पोज़िशन्स लगभग बराबर ख़राब करते हैं।</translation>
    </message>
</context>
<context>
    <name>LabResults</name>
    <message>
        <source>cannot</source>
        <extracomment>the largest length, step count or position a saved run may name (the lab trains far below it)</extracomment>
        <translation>संभव नहीं</translation>
    </message>
    <message>
        <source> ({n} cannot)</source>
        <translation> ({n} संभव नहीं)</translation>
    </message>
</context>
<context>
    <name>ModelLoading</name>
    <message>
        <source>cannot run this {family} model: {why}.</source>
        <translation>यह {family} मॉडल रन नहीं हो सकता: {why}।</translation>
    </message>
    <message>
        <source>{path} does not exist: give a model folder or a .gguf file.</source>
        <translation>{path} मौजूद नहीं है: कोई मॉडल फ़ोल्डर या .gguf फ़ाइल दें।</translation>
    </message>
    <message>
        <source>{path} is {what}, not a file: peapp reads regular files only; replace it with the real file.</source>
        <extracomment>The files transformers and tokenizers may open in a model folder (by suffix): each must be a regular file, or a FIFO would block the load and /dev/zero would be read until memory runs out.</extracomment>
        <translation>{path} {what} है, फ़ाइल नहीं: peapp केवल सामान्य फ़ाइलें पढ़ता है; इसकी जगह असली फ़ाइल रखें।</translation>
    </message>
    <message>
        <source>{path}: {what} needs a library that is not installed ({problem}); install it, or use an unquantised checkpoint.</source>
        <translation>{path}: {what} के लिए एक लाइब्रेरी चाहिए जो इंस्टॉल नहीं है ({problem}); उसे इंस्टॉल करें, या बिना क्वांटाइज़ किया चेकपॉइंट लें।</translation>
    </message>
    <message>
        <source>{path}: {what} failed ({problem}); the checkpoint is damaged or its files do not belong together.</source>
        <translation>{path}: {what} विफल रहा ({problem}); चेकपॉइंट ख़राब है या उसकी फ़ाइलें आपस में मेल नहीं खातीं।</translation>
    </message>
    <message>
        <source>{path} says {claimed} layers but the weights hold {found}: the config does not belong to these weights; fix num_hidden_layers.</source>
        <translation>{path} में {claimed} लेयर लिखी हैं पर वेट्स में {found} हैं: यह config इन वेट्स का नहीं है; num_hidden_layers ठीक करें।</translation>
    </message>
    <message>
        <source>{path} says {heads} attention heads; fix num_attention_heads.</source>
        <translation>{path} में {heads} अटेंशन हेड लिखे हैं; num_attention_heads ठीक करें।</translation>
    </message>
    <message>
        <source>{path}: {heads} attention heads do not divide the width {width}; fix num_attention_heads or hidden_size.</source>
        <translation>{path}: {heads} अटेंशन हेड चौड़ाई {width} को पूरा-पूरा नहीं बाँटते; num_attention_heads या hidden_size ठीक करें।</translation>
    </message>
    <message>
        <source>building the model from config.json</source>
        <translation>config.json से मॉडल बनाना</translation>
    </message>
    <message>
        <source>{folder}: tensor {name} is {stored} in the weights but config.json makes it {built}: the config does not belong to these weights.</source>
        <translation>{folder}: टेंसर {name} वेट्स में {stored} है पर config.json से वह {built} बनता है: यह config इन वेट्स का नहीं है।</translation>
    </message>
    <message>
        <source>{folder} has no config.json: transformers needs it to build the model.</source>
        <translation>{folder} में config.json नहीं है: मॉडल बनाने के लिए transformers को इसकी ज़रूरत है।</translation>
    </message>
    <message>
        <source>reading config.json</source>
        <translation>config.json पढ़ना</translation>
    </message>
    <message>
        <source>loading the weights</source>
        <translation>वेट्स लोड करना</translation>
    </message>
    <message>
        <source>encoder-decoder models (cross-attention) are not run; open a decoder-only or encoder-only checkpoint</source>
        <translation>एनकोडर-डिकोडर मॉडल (क्रॉस-अटेंशन) रन नहीं किए जाते; केवल-डिकोडर या केवल-एनकोडर चेकपॉइंट खोलें</translation>
    </message>
    <message>
        <source>{path}: architectures names {name}, which is not a transformers model class; fix the entry (e.g. LlamaForCausalLM) or remove it.</source>
        <translation>{path}: architectures में {name} लिखा है, जो transformers की मॉडल क्लास नहीं है; प्रविष्टि ठीक करें (जैसे LlamaForCausalLM) या हटा दें।</translation>
    </message>
    <message>
        <source>reading the tokenizer</source>
        <translation>टोकनाइज़र पढ़ना</translation>
    </message>
    <message>
        <source>{folder}: its tokenizer has no fast (tokenizers) form; add a tokenizer.json.</source>
        <translation>{folder}: इसके टोकनाइज़र का कोई तेज़ (tokenizers) रूप नहीं है; एक tokenizer.json जोड़ें।</translation>
    </message>
    <message>
        <source>{path}: its tokenizer failed on this text ({problem}); its tokenizer is broken: replace it with the model&apos;s own tokenizer.json.</source>
        <translation>{path}: इस टेक्स्ट पर इसका टोकनाइज़र विफल रहा ({problem}); टोकनाइज़र ख़राब है: इसकी जगह मॉडल की अपनी tokenizer.json रखें।</translation>
    </message>
    <message>
        <source>{path}: its tokenizer gives token id {id} but the model has only {vocab} embeddings; the tokenizer does not belong to this model.</source>
        <translation>{path}: इसका टोकनाइज़र टोकन id {id} देता है पर मॉडल में केवल {vocab} एम्बेडिंग्स हैं; यह टोकनाइज़र इस मॉडल का नहीं है।</translation>
    </message>
    <message>
        <source>{path} is not a GGUF file.</source>
        <translation>{path} GGUF फ़ाइल नहीं है।</translation>
    </message>
    <message>
        <source>the cached conversion in {folder} was unusable ({problem}); converted {path} again.</source>
        <translation>{folder} में कैश किया गया रूपांतरण काम का नहीं था ({problem}); {path} को फिर से रूपांतरित किया।</translation>
    </message>
    <message>
        <source>{path}: its header says {claimed} wide but token_embd.weight is {found} wide; the file is damaged or wrongly converted.</source>
        <translation>{path}: इसके हेडर में चौड़ाई {claimed} लिखी है पर token_embd.weight की चौड़ाई {found} है; फ़ाइल ख़राब है या ग़लत रूपांतरित हुई है।</translation>
    </message>
    <message>
        <source>{path}: its header says {claimed} layers but the file holds {found}; the file is damaged or wrongly converted.</source>
        <translation>{path}: इसके हेडर में {claimed} लेयर लिखी हैं पर फ़ाइल में {found} हैं; फ़ाइल ख़राब है या ग़लत रूपांतरित हुई है।</translation>
    </message>
    <message>
        <source>{path}: {heads} attention heads do not divide the width {width}; the file is damaged or wrongly converted.</source>
        <translation>{path}: {heads} अटेंशन हेड चौड़ाई {width} को पूरा-पूरा नहीं बाँटते; फ़ाइल ख़राब है या ग़लत रूपांतरित हुई है।</translation>
    </message>
    <message>
        <source>converting the GGUF weights</source>
        <translation>GGUF वेट्स रूपांतरित करना</translation>
    </message>
    <message>
        <source>reading the GGUF tokenizer</source>
        <translation>GGUF टोकनाइज़र पढ़ना</translation>
    </message>
    <message>
        <source>could not cache the converted model in {folder} ({problem}); it runs from memory this time (free disk space or set PEAPP_CACHE_DIR to cache it).</source>
        <translation>रूपांतरित मॉडल {folder} में कैश नहीं हो सका ({problem}); इस बार यह मेमोरी से चलता है (कैश करने के लिए डिस्क में जगह बनाएँ या PEAPP_CACHE_DIR सेट करें)।</translation>
    </message>
    <message>
        <source>its attention depends on more than q, k and the causal mask (peapp&apos;s exact attention and transformers&apos; eager one disagree); open it in the other panels</source>
        <translation>इसका अटेंशन q, k और causal मास्क से अधिक पर निर्भर है (peapp का सटीक अटेंशन और transformers का eager अटेंशन मेल नहीं खाते); इसे दूसरे पैनलों में खोलें</translation>
    </message>
</context>
<context>
    <name>ModelRun</name>
    <message>
        <source>this model&apos;s language-model class runs its layers again after they ran; it cannot be run here.</source>
        <translation>इस मॉडल की language-model क्लास अपनी लेयर्स के चलने के बाद उन्हें फिर से चलाती है; इसे यहाँ रन नहीं किया जा सकता।</translation>
    </message>
    <message>
        <source>cannot find the layers of {model}; it cannot be run here.</source>
        <translation>{model} की लेयर्स नहीं मिलीं; इसे यहाँ रन नहीं किया जा सकता।</translation>
    </message>
    <message>
        <source>cannot find the attention of {layer}; it cannot be run here.</source>
        <translation>{layer} का अटेंशन नहीं मिला; इसे यहाँ रन नहीं किया जा सकता।</translation>
    </message>
    <message>
        <source>layer {layer}&apos;s attention returned no weights; this model cannot be run here.</source>
        <translation>लेयर {layer} के अटेंशन ने कोई वेट नहीं लौटाए; यह मॉडल यहाँ रन नहीं किया जा सकता।</translation>
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
<context>
    <name>Probe</name>
    <message>
        <source>variant</source>
        <translation>वेरिएंट</translation>
    </message>
    <message>
        <source>factor</source>
        <translation>फ़ैक्टर</translation>
    </message>
    <message>
        <source>perplexity</source>
        <translation>पर्प्लेक्सिटी</translation>
    </message>
    <message>
        <source>≤ trained</source>
        <translation>≤ ट्रेनिंग</translation>
    </message>
    <message>
        <source>&gt; trained</source>
        <translation>&gt; ट्रेनिंग</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>सेकंड</translation>
    </message>
    <message>
        <source>Hover over a curve for its numbers.</source>
        <translation>संख्याएँ देखने के लिए किसी वक्र पर माउस ले जाएँ।</translation>
    </message>
    <message>
        <source>curve</source>
        <translation>वक्र</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV कैश</translation>
    </message>
    <message>
        <source>first tokens in the window</source>
        <translation>पहले टोकन्स विंडो में</translation>
    </message>
    <message>
        <source>after they leave</source>
        <translation>उनके निकलने के बाद</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>चलाएँ</translation>
    </message>
    <message>
        <source>Run the probe of the shown tab on the open checkpoint (the time is estimated first; a long run asks)</source>
        <translation>दिखाए गए टैब का प्रोब खुले चेकपॉइंट पर चलाएँ (पहले समय का अनुमान लगता है; लंबा रन पूछकर चलता है)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>रद्द करें</translation>
    </message>
    <message>
        <source>Stop the probe (Esc stops every running computation); the previous result stays</source>
        <translation>प्रोब रोकें (Esc हर चल रही गणना रोक देता है); पिछला नतीजा बना रहेगा</translation>
    </message>
    <message>
        <source>Variants</source>
        <translation>वेरिएंट्स</translation>
    </message>
    <message>
        <source>Measure the model with {variant} RoPE frequencies (the perplexity probe)</source>
        <translation>मॉडल को {variant} RoPE फ़्रीक्वेंसीज़ के साथ मापें (पर्प्लेक्सिटी प्रोब)</translation>
    </message>
    <message>
        <source>RoPE</source>
        <translation>RoPE</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>लेयर</translation>
    </message>
    <message>
        <source>Perplexity vs position</source>
        <translation>पोज़िशन के अनुसार पर्प्लेक्सिटी</translation>
    </message>
    <message>
        <source>position (tokens; each point: a window&apos;s first position)</source>
        <translation>पोज़िशन (टोकन्स; हर बिंदु: विंडो की पहली पोज़िशन)</translation>
    </message>
    <message>
        <source>perplexity (window)</source>
        <translation>पर्प्लेक्सिटी (विंडो)</translation>
    </message>
    <message>
        <source>trained context</source>
        <translation>ट्रेनिंग कॉन्टेक्स्ट</translation>
    </message>
    <message>
        <source>cannot: no position row</source>
        <translation>संभव नहीं: कोई पोज़िशन पंक्ति नहीं</translation>
    </message>
    <message>
        <source>Perplexity over all measured positions, up to the trained context and past it</source>
        <translation>सभी मापी गई पोज़िशन्स पर पर्प्लेक्सिटी, ट्रेनिंग कॉन्टेक्स्ट तक और उसके आगे</translation>
    </message>
    <message>
        <source>log p(answer)</source>
        <translation>log p(उत्तर)</translation>
    </message>
    <message>
        <source>log p(answer tokens), nats</source>
        <translation>log p(उत्तर के टोकन्स), नैट</translation>
    </message>
    <message>
        <source>Top-1 accuracy</source>
        <translation>टॉप-1 सटीकता</translation>
    </message>
    <message>
        <source>answer tokens that are top-1</source>
        <translation>उत्तर के टोकन्स जो टॉप-1 हैं</translation>
    </message>
    <message>
        <source>Attention on the needle</source>
        <translation>सुई (नीडल) पर अटेंशन</translation>
    </message>
    <message>
        <source>weight on the needle</source>
        <translation>सुई पर वेट</translation>
    </message>
    <message>
        <source>needle depth (0 start … 1 end)</source>
        <translation>सुई की गहराई (0 शुरुआत … 1 अंत)</translation>
    </message>
    <message>
        <source>What the perplexity and attention-sinks probes read (its start: Probe length or Length tokens); the passkey probe uses its own filler.</source>
        <translation>पर्प्लेक्सिटी और अटेंशन-सिंक्स प्रोब क्या पढ़ते हैं (उसकी शुरुआत: प्रोब लंबाई या लंबाई जितने टोकन्स); पासकी प्रोब अपना फ़िलर इस्तेमाल करता है।</translation>
    </message>
    <message>
        <source>choose at least one variant (as trained is the reference).</source>
        <translation>कम से कम एक वेरिएंट चुनें (ट्रेनिंग जैसा ही संदर्भ है)।</translation>
    </message>
    <message>
        <source>Measuring how long it takes (two short prefixes)…</source>
        <translation>कितना समय लगेगा यह मापा जा रहा है (दो छोटे प्रीफ़िक्स)…</translation>
    </message>
    <message>
        <source>This probe is estimated to take {minutes} minutes on this machine now ({estimate}). Run it anyway? (A shorter probe length, fewer variants or fewer depths make it shorter.)</source>
        <translation>अनुमान है कि इस मशीन पर अभी यह प्रोब {minutes} मिनट लेगा ({estimate})। फिर भी चलाएँ? (छोटी प्रोब लंबाई, कम वेरिएंट्स या कम गहराइयाँ इसे छोटा करती हैं।)</translation>
    </message>
    <message>
        <source>Not started.</source>
        <translation>शुरू नहीं किया गया।</translation>
    </message>
    <message>
        <source>Estimated: {estimate}.</source>
        <translation>अनुमान: {estimate}।</translation>
    </message>
    <message>
        <source>Short probe: no estimate needed.</source>
        <translation>छोटा प्रोब: अनुमान की ज़रूरत नहीं।</translation>
    </message>
    <message>
        <source>The {probe} probe is running; its result is lost.</source>
        <translation>{probe} प्रोब चल रहा है; इसका नतीजा खो जाएगा।</translation>
    </message>
    <message>
        <source>Probe cancelled; the previous result stays.</source>
        <translation>प्रोब रद्द किया गया; पिछला नतीजा बना हुआ है।</translation>
    </message>
    <message>
        <source>Probe cancelled.</source>
        <translation>प्रोब रद्द किया गया।</translation>
    </message>
    <message>
        <source>Drawn from the saved result {file}.</source>
        <translation>सहेजे गए नतीजे {file} से बनाया गया।</translation>
    </message>
    <message>
        <source>Measured in {seconds} s on {device} in {dtype}.</source>
        <translation>{device} पर {dtype} प्रिसिज़न में {seconds} s में मापा गया।</translation>
    </message>
    <message>
        <source>{panel}: the result could not be kept in {folder} ({problem}); sessions will not reopen it.</source>
        <translation>{panel}: नतीजा {folder} में नहीं रखा जा सका ({problem}); सेशन इसे दोबारा नहीं खोल पाएँगे।</translation>
    </message>
    <message>
        <source>full context</source>
        <translation>पूरा कॉन्टेक्स्ट</translation>
    </message>
    <message>
        <source>window W = {w}</source>
        <translation>विंडो W = {w}</translation>
    </message>
    <message>
        <source>window + {k} sinks</source>
        <translation>विंडो + {k} सिंक्स</translation>
    </message>
    <message>
        <source>every earlier token</source>
        <translation>हर पिछला टोकन</translation>
    </message>
    <message>
        <source>the last {w} tokens</source>
        <translation>आख़िरी {w} टोकन्स</translation>
    </message>
    <message>
        <source>tokens 0…{last} + the last {w}</source>
        <translation>टोकन्स 0…{last} + आख़िरी {w}</translation>
    </message>
    <message>
        <source>Attention sinks: perplexity with a sliding KV window</source>
        <translation>अटेंशन सिंक्स: स्लाइडिंग KV विंडो के साथ पर्प्लेक्सिटी</translation>
    </message>
    <message>
        <source>Attention sinks — {family}, {n} tokens, KV window {w}, {k} sinks</source>
        <translation>अटेंशन सिंक्स — {family}, {n} टोकन्स, KV विंडो {w}, {k} सिंक्स</translation>
    </message>
    <message>
        <source>position of the predicted token (each point: the first of its group of positions)</source>
        <translation>जिस टोकन की भविष्यवाणी हुई उसकी पोज़िशन (हर बिंदु: पोज़िशन्स के अपने समूह की पहली)</translation>
    </message>
    <message>
        <source>Perplexity over all measured positions, while token 0 is still in the window (positions 1 … W) and after it has left</source>
        <translation>सभी मापी गई पोज़िशन्स पर पर्प्लेक्सिटी, जब तक टोकन 0 विंडो में है (पोज़िशन्स 1 … W) और उसके निकलने के बाद</translation>
    </message>
    <message>
        <source>Probes: open a causal checkpoint (File &gt; Open Sample), choose the tab&apos;s settings and press Run. Perplexity vs position applies each RoPE scaling to the real model; the passkey probe hides a number at each depth of a filler text and asks for it at the end.</source>
        <translation>प्रोब: कोई कॉज़ल चेकपॉइंट खोलें (फ़ाइल &gt; सैंपल खोलें), टैब की सेटिंग्स चुनें और चलाएँ दबाएँ। पोज़िशन के अनुसार पर्प्लेक्सिटी असली मॉडल पर हर RoPE स्केलिंग लागू करती है; पासकी प्रोब भराव-टेक्स्ट की हर गहराई पर एक संख्या छिपाता है और अंत में उसे पूछता है।</translation>
    </message>
    <message>
        <source>Attention sinks (streaming) measures perplexity with a KV cache of the last W tokens, with and without the first K tokens kept (Xiao et al. 2024, StreamingLLM).</source>
        <translation>अटेंशन सिंक्स (स्ट्रीमिंग) आख़िरी W टोकन्स के KV कैश के साथ पर्प्लेक्सिटी मापता है, पहले K टोकन्स रखकर और बिना रखे (Xiao et al. 2024, StreamingLLM)।</translation>
    </message>
    <message>
        <source> (first positions, from the estimate)</source>
        <translation> (पहली पोज़िशन्स, अनुमान से)</translation>
    </message>
    <message>
        <source>trained context {n}</source>
        <translation>ट्रेनिंग कॉन्टेक्स्ट {n}</translation>
    </message>
    <message>
        <source>cannot: no position row past {limit}</source>
        <translation>संभव नहीं: {limit} के बाद कोई पोज़िशन पंक्ति नहीं</translation>
    </message>
    <message>
        <source> (partial)</source>
        <translation> (अधूरा)</translation>
    </message>
    <message>
        <source>{family} ({scheme} positions)</source>
        <translation>{family} ({scheme} पोज़िशन्स)</translation>
    </message>
    <message>
        <source>{model}: per-position loss on {n} tokens</source>
        <translation>{model}: {n} टोकन्स पर हर पोज़िशन का लॉस</translation>
    </message>
    <message>
        <source> of {text}</source>
        <translation> ({text} के)</translation>
    </message>
    <message>
        <source>; each point is exp(mean loss) over {window} positions.</source>
        <translation>; हर बिंदु {window} पोज़िशन्स पर exp(औसत लॉस) है।</translation>
    </message>
    <message>
        <source> Running: {n} variant finished so far.</source>
        <translation> चल रहा है: अब तक {n} वेरिएंट पूरा हुआ।</translation>
    </message>
    <message>
        <source> Running: {n} variants finished so far.</source>
        <translation> चल रहा है: अब तक {n} वेरिएंट्स पूरे हुए।</translation>
    </message>
    <message>
        <source>{variant}: not run ({reason}).</source>
        <translation>{variant}: नहीं चलाया गया ({reason})।</translation>
    </message>
    <message>
        <source>Positions {first} … {last} cannot be read: this model&apos;s learned position table has {rows} rows and no row for a later position (no scaling exists for a learned table); loss is measured up to position {measured}.</source>
        <translation>पोज़िशन्स {first} … {last} पढ़ी नहीं जा सकतीं: इस मॉडल की लर्न्ड पोज़िशन टेबल में {rows} पंक्तियाँ हैं और बाद की पोज़िशन के लिए कोई पंक्ति नहीं (लर्न्ड टेबल के लिए कोई स्केलिंग नहीं होती); लॉस पोज़िशन {measured} तक मापा गया है।</translation>
    </message>
    <message>
        <source>not a RoPE model ({scheme} positions): nothing to scale</source>
        <translation>RoPE मॉडल नहीं ({scheme} पोज़िशन्स): स्केल करने को कुछ नहीं</translation>
    </message>
    <message>
        <source>The checkpoint does not say its trained context, so nothing is compared across it.</source>
        <translation>चेकपॉइंट अपना ट्रेनिंग कॉन्टेक्स्ट नहीं बताता, इसलिए उसके आर-पार कोई तुलना नहीं की गई।</translation>
    </message>
    <message>
        <source>The probe stays within the trained context ({n} tokens): choose a probe length past it to test whether the unscaled curve rises and the scaled ones hold.</source>
        <translation>प्रोब ट्रेनिंग कॉन्टेक्स्ट ({n} टोकन्स) के भीतर ही है: यह जाँचने के लिए कि बिना स्केलिंग वाला वक्र ऊपर जाता है और स्केल किए गए टिके रहते हैं, उससे लंबी प्रोब लंबाई चुनें।</translation>
    </message>
    <message>
        <source>it rises past the trained context, as the article expects</source>
        <translation>यह ट्रेनिंग कॉन्टेक्स्ट के बाद ऊपर जाता है, जैसा लेख अपेक्षा करता है</translation>
    </message>
    <message>
        <source>it does not rise here, unlike the article&apos;s expectation</source>
        <translation>यह यहाँ ऊपर नहीं जाता, लेख की अपेक्षा के विपरीत</translation>
    </message>
    <message>
        <source>it holds, as the article expects</source>
        <translation>यह टिका रहता है, जैसा लेख अपेक्षा करता है</translation>
    </message>
    <message>
        <source>it does not hold, unlike the article&apos;s claim</source>
        <translation>यह टिका नहीं रहता, लेख के दावे के विपरीत</translation>
    </message>
    <message>
        <source>, but inside the trained context it is worse than as trained ({perplexity})</source>
        <translation>, पर ट्रेनिंग कॉन्टेक्स्ट के भीतर यह ट्रेनिंग जैसे मॉडल से ख़राब है ({perplexity})</translation>
    </message>
    <message>
        <source>Perplexity over positions {low}–{trained} → past {trained}: {measured}. (&apos;Holds&apos;: within {tolerance}.)</source>
        <translation>पोज़िशन्स {low}–{trained} पर पर्प्लेक्सिटी → {trained} के बाद: {measured}। (&apos;टिका रहता है&apos;: {tolerance} के भीतर।)</translation>
    </message>
    <message>
        <source>{n} tokens</source>
        <translation>{n} टोकन्स</translation>
    </message>
    <message>
        <source>uniform attention, {n}</source>
        <translation>एकसमान अटेंशन, {n}</translation>
    </message>
    <message>
        <source>Liu et al. 2023 (the paper&apos;s: GPT-3.5, 20-doc QA)</source>
        <translation>Liu et al. 2023 (पेपर के आँकड़े: GPT-3.5, 20-दस्तावेज़ QA)</translation>
    </message>
    <message>
        <source>Liu et al. 2023: the paper&apos;s (GPT-3.5, 20-doc QA)</source>
        <translation>Liu et al. 2023: पेपर के आँकड़े (GPT-3.5, 20-दस्तावेज़ QA)</translation>
    </message>
    <message>
        <source>paper&apos;s closed-book</source>
        <translation>पेपर का क्लोज़्ड-बुक</translation>
    </message>
    <message>
        <source>Attention on the needle, all layers</source>
        <translation>सुई पर अटेंशन, सभी लेयर्स</translation>
    </message>
    <message>
        <source>Attention on the needle, layer {layer}</source>
        <translation>सुई पर अटेंशन, लेयर {layer}</translation>
    </message>
    <message>
        <source>Measured on {device} in {dtype}.</source>
        <translation>{device} पर {dtype} प्रिसिज़न में मापा गया।</translation>
    </message>
    <message>
        <source>{family}, RoPE {rope}: a pass key at each depth of a filler of {lengths} tokens, asked for at the end;</source>
        <translation>{family}, RoPE {rope}: {lengths} टोकन्स के भराव-टेक्स्ट की हर गहराई पर एक पासकी, जो अंत में पूछी जाती है;</translation>
    </message>
    <message>
        <source>{n} prompt so far (running).</source>
        <translation>अब तक {n} प्रॉम्प्ट (चल रहा है)।</translation>
    </message>
    <message>
        <source>{n} prompts so far (running).</source>
        <translation>अब तक {n} प्रॉम्प्ट्स (चल रहा है)।</translation>
    </message>
    <message>
        <source>{n} prompt.</source>
        <translation>{n} प्रॉम्प्ट।</translation>
    </message>
    <message>
        <source>{n} prompts.</source>
        <translation>{n} प्रॉम्प्ट्स।</translation>
    </message>
    <message>
        <source>lower in the middle than at the ends (lost in the middle)</source>
        <translation>सिरों की तुलना में बीच में कम (बीच में खो जाना)</translation>
    </message>
    <message>
        <source>not lower in the middle than at the ends (no lost-in-the-middle dip)</source>
        <translation>सिरों की तुलना में बीच में कम नहीं (बीच में खो जाने वाली गिरावट नहीं)</translation>
    </message>
    <message>
        <source>{n} tokens: accuracy {ends} at the ends, {middle} in the middle: {shape}.</source>
        <translation>{n} टोकन्स: सिरों पर सटीकता {ends}, बीच में {middle}: {shape}।</translation>
    </message>
    <message>
        <source>Grey dashed: the paper&apos;s numbers, Liu et al. 2023 (arXiv:2307.03172), GPT-3.5-Turbo on {documents}-document QA by the answer document&apos;s position — another model and task, drawn for the shape, not as a like-for-like comparison. Right: the answer rows&apos; attention on the needle, mean over heads (and layers with Layer = all); dotted, its share if attention were uniform.</source>
        <translation>धूसर डैश: पेपर के आँकड़े, Liu et al. 2023 (arXiv:2307.03172), {documents}-दस्तावेज़ QA पर GPT-3.5-Turbo, उत्तर वाले दस्तावेज़ की पोज़िशन के अनुसार — अलग मॉडल और अलग काम, केवल आकार के लिए दिखाया गया, बराबरी की तुलना के लिए नहीं। दाएँ: उत्तर की पंक्तियों का सुई पर अटेंशन, हेड्स पर औसत (और लेयर = सभी हो तो लेयर्स पर भी); बिंदुदार: अटेंशन एकसमान होता तो उसका हिस्सा।</translation>
    </message>
    <message>
        <source>token 0 leaves the window ({position})</source>
        <translation>टोकन 0 विंडो से निकलता है ({position})</translation>
    </message>
    <message>
        <source>{family}: per-position loss on {n} tokens</source>
        <translation>{family}: {n} टोकन्स पर हर पोज़िशन का लॉस</translation>
    </message>
    <message>
        <source>: full context, a KV cache of the last {w}, and that window + the first {k}; a point is exp(mean loss) over {bin} positions.</source>
        <translation>: पूरा कॉन्टेक्स्ट, आख़िरी {w} का KV कैश, और वही विंडो + पहले {k}; एक बिंदु {bin} पोज़िशन्स पर exp(औसत लॉस) है।</translation>
    </message>
    <message>
        <source>Positions as StreamingLLM numbers them inside the cache (sinks 0…K−1, window K…K+W−1): with the text&apos;s own, the sinks would drift past any trained distance and this would measure length extrapolation instead.</source>
        <translation>पोज़िशन्स वैसे जैसे StreamingLLM कैश के अंदर गिनता है (सिंक्स 0…K−1, विंडो K…K+W−1): टेक्स्ट की अपनी पोज़िशन्स से सिंक्स ट्रेनिंग में देखी हर दूरी से आगे खिसक जाते और यह इसके बजाय लंबाई एक्सट्रैपोलेशन मापता।</translation>
    </message>
    <message>
        <source>Reference: Xiao et al. 2024 (StreamingLLM), Llama-2-13B on PG19, cache 1,024: window alone {window} once the first tokens are evicted, 4 sinks + 1,020 {sinks}, dense {full} — another model and text.</source>
        <translation>संदर्भ: Xiao et al. 2024 (StreamingLLM), PG19 पर Llama-2-13B, कैश 1,024: पहले टोकन्स के निकलते ही केवल विंडो {window}, 4 सिंक्स + 1,020 {sinks}, पूरा (डेंस) {full} — दूसरा मॉडल और टेक्स्ट।</translation>
    </message>
    <message>
        <source>Running: {n} of 3 curves finished so far.</source>
        <translation>चल रहा है: अब तक 3 में से {n} वक्र पूरे हुए।</translation>
    </message>
    <message>
        <source>Measured: {verdict}</source>
        <translation>मापा गया: {verdict}</translation>
    </message>
    <message>
        <source>position {position}: cannot — the learned position table has {rows} rows, none for this position</source>
        <translation>पोज़िशन {position}: संभव नहीं — लर्न्ड पोज़िशन टेबल में {rows} पंक्तियाँ हैं, इस पोज़िशन के लिए कोई नहीं</translation>
    </message>
    <message>
        <source>positions {first}–{last}: perplexity {values}</source>
        <translation>पोज़िशन्स {first}–{last}: पर्प्लेक्सिटी {values}</translation>
    </message>
    <message>
        <source>token 0 in the window</source>
        <translation>टोकन 0 विंडो में</translation>
    </message>
    <message>
        <source>token 0 evicted</source>
        <translation>टोकन 0 निकल चुका</translation>
    </message>
    <message>
        <source>token 0 leaves the window here</source>
        <translation>टोकन 0 यहीं विंडो से निकलता है</translation>
    </message>
    <message>
        <source>positions {first}–{last} ({where}), perplexity — {values}</source>
        <translation>पोज़िशन्स {first}–{last} ({where}), पर्प्लेक्सिटी — {values}</translation>
    </message>
    <message>
        <source>{n} tokens: log p {logp}, top-1 {accuracy}, attention on the needle {attention}</source>
        <translation>{n} टोकन्स: log p {logp}, टॉप-1 {accuracy}, सुई पर अटेंशन {attention}</translation>
    </message>
    <message>
        <source>depth {depth}: {values}</source>
        <translation>गहराई {depth}: {values}</translation>
    </message>
    <message>
        <source>not measured yet</source>
        <translation>अभी मापा नहीं गया</translation>
    </message>
    <message>
        <source>Perplexity vs position — {family}, {n} tokens, factor {factor}</source>
        <translation>पोज़िशन के अनुसार पर्प्लेक्सिटी — {family}, {n} टोकन्स, फ़ैक्टर {factor}</translation>
    </message>
    <message>
        <source>Passkey by depth — {family}, {lengths} tokens</source>
        <translation>गहराई के अनुसार पासकी — {family}, {lengths} टोकन्स</translation>
    </message>
</context>
<context>
    <name>ProbePanel</name>
    <message>
        <source>Perplexity vs position</source>
        <translation>पोज़िशन के अनुसार पर्प्लेक्सिटी</translation>
    </message>
    <message>
        <source>Passkey by depth</source>
        <translation>गहराई के अनुसार पासकी</translation>
    </message>
    <message>
        <source>Attention sinks (streaming)</source>
        <translation>अटेंशन सिंक्स (स्ट्रीमिंग)</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>दिखाएँ</translation>
    </message>
    <message>
        <source>Which probe the panel shows.</source>
        <translation>पैनल कौन-सा प्रोब दिखाए।</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>टेक्स्ट</translation>
    </message>
    <message>
        <source>What the perplexity probe reads: the bundled sample, a .txt file, or typed text.</source>
        <translation>पर्प्लेक्सिटी प्रोब क्या पढ़े: साथ आया सैंपल, कोई .txt फ़ाइल, या लिखा हुआ टेक्स्ट।</translation>
    </message>
    <message>
        <source>Typed text</source>
        <translation>लिखा हुआ टेक्स्ट</translation>
    </message>
    <message>
        <source>The typed or pasted text (with Text = typed).</source>
        <translation>लिखा या चिपकाया गया टेक्स्ट (जब टेक्स्ट = लिखा हुआ)।</translation>
    </message>
    <message>
        <source>Text file</source>
        <translation>टेक्स्ट फ़ाइल</translation>
    </message>
    <message>
        <source>The .txt file (UTF-8) to read (with Text = file).</source>
        <translation>पढ़ने के लिए .txt फ़ाइल (UTF-8) (जब टेक्स्ट = फ़ाइल)।</translation>
    </message>
    <message>
        <source>Text SHA-256</source>
        <translation>टेक्स्ट का SHA-256</translation>
    </message>
    <message>
        <source>SHA-256 of the text that was measured (a changed file is noticed).</source>
        <translation>मापे गए टेक्स्ट का SHA-256 (बदली हुई फ़ाइल पकड़ में आ जाती है)।</translation>
    </message>
    <message>
        <source>Probe length</source>
        <translation>प्रोब लंबाई</translation>
    </message>
    <message>
        <source>Tokens of the text to measure (its start). Past the trained context the unscaled model is expected to degrade; long lengths take minutes on a CPU.</source>
        <translation>टेक्स्ट के कितने टोकन्स मापने हैं (शुरुआत से)। ट्रेनिंग कॉन्टेक्स्ट के बाद बिना स्केलिंग वाले मॉडल के बिगड़ने की अपेक्षा है; लंबी लंबाइयाँ CPU पर कई मिनट लेती हैं।</translation>
    </message>
    <message>
        <source>Variants</source>
        <translation>वेरिएंट्स</translation>
    </message>
    <message>
        <source>Comma-separated: none (as trained), linear, ntk, dynamic, yarn, llama3.</source>
        <translation>कॉमा से अलग: none (ट्रेनिंग जैसा), linear, ntk, dynamic, yarn, llama3।</translation>
    </message>
    <message>
        <source>Scaling factor</source>
        <translation>स्केलिंग फ़ैक्टर</translation>
    </message>
    <message>
        <source>The factor of every scaling variant (how many times the trained context).</source>
        <translation>हर स्केलिंग वेरिएंट का फ़ैक्टर (ट्रेनिंग कॉन्टेक्स्ट का कितने गुना)।</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>विंडो</translation>
    </message>
    <message>
        <source>Positions per point of the perplexity curve (exp of the window&apos;s mean loss).</source>
        <translation>पर्प्लेक्सिटी वक्र के हर बिंदु में पोज़िशन्स (विंडो के औसत लॉस का exp)।</translation>
    </message>
    <message>
        <source>Passkey lengths</source>
        <translation>पासकी लंबाइयाँ</translation>
    </message>
    <message>
        <source>Comma-separated context lengths of the passkey probe.</source>
        <translation>पासकी प्रोब की कॉन्टेक्स्ट लंबाइयाँ, कॉमा से अलग।</translation>
    </message>
    <message>
        <source>Depths</source>
        <translation>गहराइयाँ</translation>
    </message>
    <message>
        <source>Comma-separated needle depths, 0 (first) … 1 (last) of the filler.</source>
        <translation>सुई की गहराइयाँ, कॉमा से अलग, भराव-टेक्स्ट का 0 (पहला) … 1 (आख़िरी)।</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>प्रयास</translation>
    </message>
    <message>
        <source>Pass keys per (length, depth).</source>
        <translation>हर (लंबाई, गहराई) पर पासकीज़।</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>सीड</translation>
    </message>
    <message>
        <source>Seed of the pass keys.</source>
        <translation>पासकीज़ का सीड।</translation>
    </message>
    <message>
        <source>Passkey RoPE</source>
        <translation>पासकी RoPE</translation>
    </message>
    <message>
        <source>The RoPE frequencies the passkey probe runs with (none: as trained).</source>
        <translation>पासकी प्रोब किन RoPE फ़्रीक्वेंसीज़ के साथ चले (ट्रेनिंग जैसा: बिना स्केलिंग)।</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>प्रिसिज़न</translation>
    </message>
    <message>
        <source>Results file</source>
        <translation>नतीजों की फ़ाइल</translation>
    </message>
    <message>
        <source>A saved perplexity result (peapp probe perplexity … --json) to draw instead of running again.</source>
        <translation>सहेजा गया पर्प्लेक्सिटी नतीजा (peapp probe perplexity … --json), जिसे फिर से चलाने के बजाय दिखाया जाए।</translation>
    </message>
    <message>
        <source>Passkey results file</source>
        <translation>पासकी नतीजों की फ़ाइल</translation>
    </message>
    <message>
        <source>A saved passkey result (peapp probe passkey … --json) to draw instead of running again.</source>
        <translation>सहेजा गया पासकी नतीजा (peapp probe passkey … --json), जिसे फिर से चलाने के बजाय दिखाया जाए।</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>लंबाई</translation>
    </message>
    <message>
        <source>Tokens of the text the attention-sinks probe measures (its start); choose more than Window W, or nothing leaves the window.</source>
        <translation>टेक्स्ट के वे टोकन्स जिन्हें अटेंशन-सिंक्स प्रोब मापता है (उसकी शुरुआत); विंडो W से ज़्यादा चुनें, वरना विंडो से कुछ नहीं निकलता।</translation>
    </message>
    <message>
        <source>Window W</source>
        <translation>विंडो W</translation>
    </message>
    <message>
        <source>W: tokens the sliding KV cache keeps (query i sees keys i − W + 1 … i). Past position W the first tokens have left it.</source>
        <translation>W: स्लाइडिंग KV कैश में रखे टोकन्स (क्वेरी i, की i − W + 1 … i देखती है)। पोज़िशन W के बाद पहले टोकन्स उससे निकल चुके होते हैं।</translation>
    </message>
    <message>
        <source>Sinks K</source>
        <translation>सिंक्स K</translation>
    </message>
    <message>
        <source>K: first tokens kept in the cache beside the window (StreamingLLM keeps 4); 0 makes the third curve the window alone.</source>
        <translation>K: विंडो के साथ कैश में रखे पहले टोकन्स (StreamingLLM 4 रखता है); 0 से तीसरा वक्र केवल विंडो बन जाता है।</translation>
    </message>
    <message>
        <source>Positions per point</source>
        <translation>हर बिंदु पर पोज़िशन्स</translation>
    </message>
    <message>
        <source>Positions per point of the attention-sinks curves (exp of their mean loss); redrawn without running again.</source>
        <translation>अटेंशन-सिंक्स वक्रों के हर बिंदु पर पोज़िशन्स (उनके औसत लॉस का exp); दोबारा चलाए बिना फिर से बनाया जाता है।</translation>
    </message>
    <message>
        <source>Streaming results file</source>
        <translation>स्ट्रीमिंग नतीजों की फ़ाइल</translation>
    </message>
    <message>
        <source>A saved attention-sinks result (peapp probe streaming … --json) to draw instead of running again.</source>
        <translation>सहेजा गया अटेंशन-सिंक्स नतीजा (peapp probe streaming … --json), जिसे दोबारा चलाने के बजाय बनाया जाए।</translation>
    </message>
    <message>
        <source>Attention layer</source>
        <translation>अटेंशन लेयर</translation>
    </message>
    <message>
        <source>The layer whose attention on the needle is drawn (mean over its heads); -1: the mean over every layer.</source>
        <translation>वह लेयर जिसका सुई पर अटेंशन दिखाया जाए (उसके हेड्स पर औसत); -1: सभी लेयर्स का औसत।</translation>
    </message>
    <message>
        <source>passkey lengths</source>
        <translation>पासकी लंबाइयाँ</translation>
    </message>
    <message>
        <source>passkey lengths must be between 2 and {limit} tokens.</source>
        <translation>पासकी लंबाइयाँ 2 और {limit} टोकन्स के बीच होनी चाहिए।</translation>
    </message>
    <message>
        <source>depths</source>
        <translation>गहराइयाँ</translation>
    </message>
    <message>
        <source>depths must be between 0 and 1 (0 % … 100 % of the filler).</source>
        <translation>गहराइयाँ 0 और 1 के बीच होनी चाहिए (भराव-टेक्स्ट का 0 % … 100 %)।</translation>
    </message>
</context>
<context>
    <name>ProbeRun</name>
    <message>
        <source>as trained</source>
        <translation>ट्रेनिंग जैसा</translation>
    </message>
    <message>
        <source>linear (PI)</source>
        <translation>लीनियर (PI)</translation>
    </message>
    <message>
        <source>NTK-aware</source>
        <translation>NTK-अवेयर</translation>
    </message>
    <message>
        <source>dynamic NTK</source>
        <translation>डायनेमिक NTK</translation>
    </message>
    <message>
        <source>variants: {bad}; choose from {allowed} (comma-separated).</source>
        <extracomment>peapp.model_run.streaming&apos;s limits, spelled out here for the same reason (a test keeps them equal)</extracomment>
        <translation>वेरिएंट्स: {bad}; इनमें से चुनें: {allowed} (कॉमा से अलग)।</translation>
    </message>
    <message>
        <source>none given</source>
        <translation>कोई नहीं दिया गया</translation>
    </message>
    <message>
        <source>{what}: {text} is not a comma-separated list of numbers.</source>
        <translation>{what}: {text} कॉमा से अलग संख्याओं की सूची नहीं है।</translation>
    </message>
    <message>
        <source>{what}: give at least one number.</source>
        <translation>{what}: कम से कम एक संख्या दें।</translation>
    </message>
    <message>
        <source>{path} is not a saved probe result (peapp probe perplexity|passkey|streaming --json).</source>
        <extracomment>the view setting that names each probe&apos;s saved result</extracomment>
        <translation>{path} सहेजा गया प्रोब नतीजा नहीं है (peapp probe perplexity|passkey|streaming --json)।</translation>
    </message>
    <message>
        <source>the text has {n} tokens, fewer than the probe length {length}: choose a longer text or a shorter length.</source>
        <translation>टेक्स्ट में {n} टोकन्स हैं, प्रोब लंबाई {length} से कम: लंबा टेक्स्ट या छोटी लंबाई चुनें।</translation>
    </message>
</context>
<context>
    <name>Probes</name>
    <message>
        <source> and </source>
        <extracomment>&quot;none&quot; is the model as trained; the rest are RopeSpec&apos;s rope_type names (the extrapolation panel&apos;s)</extracomment>
        <translation> और </translation>
    </message>
    <message>
        <source>{seconds} s at {n}</source>
        <translation>{n} पर {seconds} s</translation>
    </message>
    <message>
        <source>about {duration} for {runs} run of {n} tokens</source>
        <translation>{n} टोकन्स के {runs} रन के लिए लगभग {duration}</translation>
    </message>
    <message>
        <source>about {duration} for {runs} runs of {n} tokens</source>
        <translation>{n} टोकन्स के {runs} रन के लिए लगभग {duration}</translation>
    </message>
    <message>
        <source> (measured {points} tokens; t = a·n + b·n² fitted through them and scaled)</source>
        <translation> ({points} टोकन्स पर मापा गया; t = a·n + b·n² उनसे फ़िट करके स्केल किया गया)</translation>
    </message>
</context>
<context>
    <name>Run</name>
    <message>
        <source>Type or paste a text here, open a .txt file, or pick the bundled sample; then press Run.</source>
        <translation>यहाँ कोई टेक्स्ट लिखें या चिपकाएँ, कोई .txt फ़ाइल खोलें, या साथ आया सैंपल चुनें; फिर चलाएँ दबाएँ।</translation>
    </message>
    <message>
        <source>Hover over a figure for its numbers; click a head in the grid to open it.</source>
        <translation>संख्याएँ देखने के लिए किसी चित्र पर माउस ले जाएँ; ग्रिड में किसी हेड को खोलने के लिए उस पर क्लिक करें।</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>टेक्स्ट</translation>
    </message>
    <message>
        <source>What the checkpoint runs on; the choice is recorded in sessions and exports.</source>
        <translation>चेकपॉइंट किस पर चलेगा; यह चुनाव सेशन और एक्सपोर्ट में दर्ज होता है।</translation>
    </message>
    <message>
        <source>Open .txt…</source>
        <translation>.txt खोलें…</translation>
    </message>
    <message>
        <source>Open a UTF-8 .txt file to run on (its path is recorded in sessions)</source>
        <translation>चलाने के लिए कोई UTF-8 .txt फ़ाइल खोलें (उसका पाथ सेशन में दर्ज होता है)</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>टोकन्स</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>चलाएँ</translation>
    </message>
    <message>
        <source>Run the open checkpoint on this text (its own tokenizer)</source>
        <translation>खुले चेकपॉइंट को इस टेक्स्ट पर चलाएँ (उसके अपने टोकनाइज़र से)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>रद्द करें</translation>
    </message>
    <message>
        <source>Stop the run (Esc stops every running computation); the previous result stays</source>
        <translation>रन रोकें (Esc हर चल रही गणना रोक देता है); पिछला नतीजा बना रहेगा</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>ज़ूम रीसेट करें</translation>
    </message>
    <message>
        <source>Show the whole attention map again (zoom with the mouse wheel or a right-drag; the visible region is recomputed exactly, token by token)</source>
        <translation>पूरा अटेंशन मैप फिर से दिखाएँ (माउस व्हील या राइट-ड्रैग से ज़ूम करें; दिखने वाला हिस्सा टोकन-दर-टोकन सटीक रूप से फिर से निकाला जाता है)</translation>
    </message>
    <message>
        <source>{value} tokens is past this model&apos;s context: its learned position table has {rows} rows, so it reads at most {rows} tokens.</source>
        <translation>{value} टोकन्स इस मॉडल के कॉन्टेक्स्ट से आगे हैं: इसकी सीखी हुई पोज़िशन टेबल में {rows} पंक्तियाँ हैं, इसलिए यह अधिकतम {rows} टोकन्स पढ़ता है।</translation>
    </message>
    <message>
        <source>Not run: Tokens holds a refused value ({why}). Correct it, then press Run.</source>
        <translation>रन नहीं हुआ: टोकन्स में अस्वीकृत मान है ({why})। इसे ठीक करें, फिर ‘चलाएँ’ दबाएँ।</translation>
    </message>
    <message>
        <source>NoPE temperature: with a model that has NoPE layers (Llama 4, SmolLM3, Command R7B), this tab draws a NoPE layer&apos;s attention entropy per query position with and without Llama 4&apos;s temperature, from the q and k the run keeps.</source>
        <translation>NoPE टेम्परेचर: NoPE लेयर्स वाले मॉडल (Llama 4, SmolLM3, Command R7B) के साथ यह टैब रन द्वारा रखे गए q और k से, हर क्वेरी पोज़िशन पर NoPE लेयर की अटेंशन एन्ट्रॉपी Llama 4 के टेम्परेचर के साथ और उसके बिना दिखाता है।</translation>
    </message>
    <message>
        <source>{figure} — {model} on {text}, NoPE layer {layer}</source>
        <translation>{figure} — {text} पर {model}, NoPE लेयर {layer}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>कोई नहीं</translation>
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
        <source>layer</source>
        <translation>लेयर</translation>
    </message>
    <message>
        <source>head (per layer; sorted by the statistic when Sort is on)</source>
        <translation>हेड (हर लेयर में; क्रमबद्ध चालू हो तो आँकड़े के अनुसार क्रम में)</translation>
    </message>
    <message>
        <source>Mean attention by distance, heads of the chosen layer</source>
        <translation>दूरी के अनुसार औसत अटेंशन, चुनी गई लेयर के हेड्स</translation>
    </message>
    <message>
        <source>distance (tokens)</source>
        <translation>दूरी (टोकन्स)</translation>
    </message>
    <message>
        <source>mean weight</source>
        <translation>औसत वेट</translation>
    </message>
    <message>
        <source>Head class</source>
        <translation>हेड की श्रेणी</translation>
    </message>
    <message>
        <source>head</source>
        <translation>हेड</translation>
    </message>
    <message>
        <source>Share of attention on token 0</source>
        <translation>टोकन 0 पर अटेंशन का हिस्सा</translation>
    </message>
    <message>
        <source>… on the first {n} tokens</source>
        <translation>… पहले {n} टोकन्स पर</translation>
    </message>
    <message>
        <source>|q|·|k| share per rotary pair</source>
        <translation>हर रोटरी जोड़े का |q|·|k| हिस्सा</translation>
    </message>
    <message>
        <source>wavelength 2π/θ (tokens)</source>
        <translation>वेवलेंथ 2π/θ (टोकन्स)</translation>
    </message>
    <message>
        <source>share of the layer&apos;s |q|·|k|</source>
        <translation>लेयर के |q|·|k| में हिस्सा</translation>
    </message>
    <message>
        <source>Share per pair and layer</source>
        <translation>हर जोड़े और लेयर का हिस्सा</translation>
    </message>
    <message>
        <source>pair (shortest wavelength left)</source>
        <translation>जोड़ा (सबसे छोटी वेवलेंथ बाईं ओर)</translation>
    </message>
    <message>
        <source>Open a text</source>
        <translation>टेक्स्ट खोलें</translation>
    </message>
    <message>
        <source>Text (*.txt);;All files (*)</source>
        <translation>टेक्स्ट (*.txt);;सभी फ़ाइलें (*)</translation>
    </message>
    <message>
        <source>the text is empty: type or paste some, open a .txt file, or pick the sample.</source>
        <translation>टेक्स्ट ख़ाली है: कुछ लिखें या चिपकाएँ, कोई .txt फ़ाइल खोलें, या सैंपल चुनें।</translation>
    </message>
    <message>
        <source>no checkpoint is open: open one (File &gt; Open, or File &gt; Open Sample) first.</source>
        <translation>कोई चेकपॉइंट खुला नहीं है: पहले एक खोलें (फ़ाइल &gt; खोलें, या फ़ाइल &gt; सैंपल खोलें)।</translation>
    </message>
    <message>
        <source>Run on text is running the model ({percent} % done); the run is lost.</source>
        <translation>टेक्स्ट पर रन मॉडल चला रहा है ({percent} % पूरा); यह रन खो जाएगा।</translation>
    </message>
    <message>
        <source>Run cancelled; the previous result stays.</source>
        <translation>रन रद्द किया गया; पिछला नतीजा बना हुआ है।</translation>
    </message>
    <message>
        <source>Run cancelled.</source>
        <translation>रन रद्द किया गया।</translation>
    </message>
    <message>
        <source> The previous result stays.</source>
        <translation> पिछला नतीजा बना हुआ है।</translation>
    </message>
    <message>
        <source>{model} is open: choose a text (type it, open a .txt, or the bundled sample) and press Run.</source>
        <translation>{model} खुला है: कोई टेक्स्ट चुनें (लिखें, कोई .txt खोलें, या साथ आया सैंपल) और चलाएँ दबाएँ।</translation>
    </message>
    <message>
        <source>Run on text: open a checkpoint (File &gt; Open Sample), choose a text (type it, open a .txt, or the bundled sample) and press Run.</source>
        <translation>टेक्स्ट पर चलाएँ: कोई चेकपॉइंट खोलें (फ़ाइल &gt; सैंपल खोलें), कोई टेक्स्ट चुनें (लिखें, कोई .txt खोलें, या साथ आया सैंपल) और चलाएँ दबाएँ।</translation>
    </message>
    <message>
        <source>The model runs with its own tokenizer; every statistic is measured on its real attention.</source>
        <translation>मॉडल अपने ही टोकनाइज़र से चलता है; हर आँकड़ा उसके असली अटेंशन पर मापा जाता है।</translation>
    </message>
    <message>
        <source>query position</source>
        <translation>क्वेरी पोज़िशन</translation>
    </message>
    <message>
        <source>attention entropy (nats)</source>
        <translation>अटेंशन एन्ट्रॉपी (नैट)</translation>
    </message>
    <message>
        <source>q multiplier</source>
        <translation>q का गुणक</translation>
    </message>
    <message>
        <source> — {rows}×{cols} thumbnail until layer {layer} is run</source>
        <translation> — लेयर {layer} चलने तक {rows}×{cols} थंबनेल</translation>
    </message>
    <message>
        <source>layer {layer}, head {head}: {kind}</source>
        <translation>लेयर {layer}, हेड {head}: {kind}</translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation>अटेंशन वेट</translation>
    </message>
    <message>
        <source> (mean per cell)</source>
        <translation> (हर सेल का औसत)</translation>
    </message>
    <message>
        <source>frame: {statistic}</source>
        <translation>फ़्रेम: {statistic}</translation>
    </message>
    <message>
        <source>Every layer × head ({layers} × {heads}); orange box: the Attention tab&apos;s head</source>
        <translation>हर लेयर × हेड ({layers} × {heads}); नारंगी बॉक्स: अटेंशन टैब का हेड</translation>
    </message>
    <message>
        <source>Layer {layer}: mean weight by distance (thick: head {head})</source>
        <translation>लेयर {layer}: दूरी के अनुसार औसत वेट (मोटी रेखा: हेड {head})</translation>
    </message>
    <message>
        <source>No rotary pairs: this model&apos;s position scheme is {scheme}</source>
        <translation>कोई रोटरी जोड़े नहीं: इस मॉडल की पोज़िशन स्कीम {scheme} है</translation>
    </message>
    <message>
        <source>Layer {layer} (orange): |q|·|k| share per pair</source>
        <translation>लेयर {layer} (नारंगी): हर जोड़े का |q|·|k| हिस्सा</translation>
    </message>
    <message>
        <source>running for this head…</source>
        <translation>इस हेड के लिए चल रहा है…</translation>
    </message>
    <message>
        <source>Run for this layer and head to compare its terms</source>
        <translation>इसके टर्म्स की तुलना के लिए इस लेयर और हेड पर चलाएँ</translation>
    </message>
    <message>
        <source>Layer {layer} has no position encoding of its own (NoPE): there is no rotation to remove.</source>
        <translation>लेयर {layer} का अपना कोई पोज़िशन एनकोडिंग नहीं है (NoPE): हटाने के लिए कोई रोटेशन नहीं है।</translation>
    </message>
    <message>
        <source>No position term to separate for a {scheme} model</source>
        <translation>{scheme} मॉडल में अलग करने लायक कोई पोज़िशन टर्म नहीं</translation>
    </message>
    <message>
        <source>logit q·k·scale</source>
        <translation>लॉजिट q·k·स्केल</translation>
    </message>
    <message>
        <source>real logits, layer {layer} head {head}</source>
        <translation>असली लॉजिट्स, लेयर {layer} हेड {head}</translation>
    </message>
    <message>
        <source>No NoPE layer in this model: every layer has a position encoding of its own</source>
        <translation>इस मॉडल में कोई NoPE लेयर नहीं: हर लेयर की अपनी पोज़िशनल एनकोडिंग है</translation>
    </message>
    <message>
        <source>Layer {layer} (NoPE): computing its entropy from the run&apos;s q and k…</source>
        <translation>लेयर {layer} (NoPE): रन के q और k से इसकी एन्ट्रॉपी की गणना हो रही है…</translation>
    </message>
    <message>
        <source>without the scale</source>
        <translation>स्केल के बिना</translation>
    </message>
    <message>
        <source>with the scale</source>
        <translation>स्केल के साथ</translation>
    </message>
    <message>
        <source>uniform: ln(p + 1)</source>
        <translation>एकसमान: ln(p + 1)</translation>
    </message>
    <message>
        <source>Layer {layer} (NoPE): entropy of each query&apos;s attention, mean over its {heads} heads</source>
        <translation>लेयर {layer} (NoPE): हर क्वेरी के अटेंशन की एन्ट्रॉपी, इसके {heads} हेड्स पर औसत</translation>
    </message>
    <message>
        <source>the query&apos;s multiplier 1 + {a}·ln(1 + ⌊(p + 1)/{f}⌋)</source>
        <translation>क्वेरी का गुणक 1 + {a}·ln(1 + ⌊(p + 1)/{f}⌋)</translation>
    </message>
    <message>
        <source>NoPE layers: none here. The temperature (Llama 4&apos;s attn_temperature_tuning) acts on layers without a position encoding of their own, in a model whose other layers rotate q and k (Llama 4, SmolLM3, Command R7B); this model&apos;s layers: {kinds}.</source>
        <translation>NoPE लेयर्स: यहाँ कोई नहीं। टेम्परेचर (Llama 4 का attn_temperature_tuning) उन लेयर्स पर काम करता है जिनकी अपनी पोज़िशनल एनकोडिंग नहीं होती, ऐसे मॉडल में जिसकी बाकी लेयर्स q और k को रोटेट करती हैं (Llama 4, SmolLM3, Command R7B); इस मॉडल की लेयर्स: {kinds}।</translation>
    </message>
    <message>
        <source>Layer {chosen} has a position encoding of its own; showing NoPE layer {layer} (NoPE layers: {layers}).</source>
        <translation>लेयर {chosen} की अपनी पोज़िशनल एनकोडिंग है; NoPE लेयर {layer} दिखाई जा रही है (NoPE लेयर्स: {layers})।</translation>
    </message>
    <message>
        <source>NoPE layers: {layers}.</source>
        <translation>NoPE लेयर्स: {layers}।</translation>
    </message>
    <message>
        <source>Computing layer {layer}&apos;s entropy from the q and k the run kept…</source>
        <translation>रन द्वारा रखे गए q और k से लेयर {layer} की एन्ट्रॉपी की गणना हो रही है…</translation>
    </message>
    <message>
        <source>this model applies it itself (attn_temperature_tuning): dashed is what it computed, solid divides the scale out</source>
        <translation>यह मॉडल इसे ख़ुद लगाता है (attn_temperature_tuning): डैश वाली रेखा वही है जो इसने गणना की, ठोस रेखा में स्केल को भाग देकर हटाया गया है</translation>
    </message>
    <message>
        <source>this model applies no temperature: the scale is applied here to the q the run kept</source>
        <translation>यह मॉडल कोई टेम्परेचर नहीं लगाता: स्केल यहाँ रन द्वारा रखे गए q पर लगाया गया है</translation>
    </message>
    <message>
        <source>from its config</source>
        <translation>इसके config से</translation>
    </message>
    <message>
        <source>Llama 4&apos;s defaults</source>
        <translation>Llama 4 के डिफ़ॉल्ट</translation>
    </message>
    <message>
        <source>Entropy (nats) of each query&apos;s causal attention in layer {layer}, mean over its heads, computed from the q and k this run kept (no second forward pass): solid without the temperature, dashed with Llama 4&apos;s scale of the query, 1 + attn_scale·ln(1 + ⌊(p + 1)/floor_scale⌋), attn_scale {a}, floor_scale {f} ({origin}); {where}. Dotted: uniform attention over the p + 1 keys a query sees; red: where the scale first rises; green: the training length.</source>
        <translation>लेयर {layer} में हर क्वेरी के कॉज़ल अटेंशन की एन्ट्रॉपी (नैट), इसके हेड्स पर औसत, इस रन द्वारा रखे गए q और k से गणना की गई (दूसरा फ़ॉरवर्ड पास नहीं): ठोस रेखा टेम्परेचर के बिना, डैश वाली रेखा क्वेरी पर Llama 4 के स्केल 1 + attn_scale·ln(1 + ⌊(p + 1)/floor_scale⌋) के साथ, attn_scale {a}, floor_scale {f} ({origin}); {where}। बिंदुदार: क्वेरी को दिखने वाली p + 1 कीज़ पर एकसमान अटेंशन; लाल: जहाँ स्केल पहली बार बढ़ता है; हरा: ट्रेनिंग की लंबाई।</translation>
    </message>
    <message>
        <source>{model} ({family}) on {text}: {n} tokens</source>
        <translation>{model} ({family}), {text} पर: {n} टोकन्स</translation>
    </message>
    <message>
        <source> (text cut at the model&apos;s context: its learned position table has {rows} rows)</source>
        <translation> (टेक्स्ट मॉडल के कॉन्टेक्स्ट पर काटा गया: इसकी सीखी हुई पोज़िशन टेबल में {rows} पंक्तियाँ हैं)</translation>
    </message>
    <message>
        <source> (text cut at Tokens)</source>
        <translation> (टेक्स्ट टोकन्स की सीमा पर काटा गया)</translation>
    </message>
    <message>
        <source>, perplexity {perplexity}</source>
        <translation>, पर्प्लेक्सिटी {perplexity}</translation>
    </message>
    <message>
        <source>; run in {seconds} s on {device} in {dtype}.</source>
        <translation>; {device} पर {dtype} प्रिसिज़न में {seconds} s में चला।</translation>
    </message>
    <message>
        <source> Note: the text&apos;s SHA-256 differs from the one this session recorded (the file changed).</source>
        <translation> ध्यान दें: टेक्स्ट का SHA-256 इस सेशन में दर्ज SHA-256 से अलग है (फ़ाइल बदल गई है)।</translation>
    </message>
    <message>
        <source>one token per cell</source>
        <translation>हर सेल में एक टोकन</translation>
    </message>
    <message>
        <source>each cell the mean over {rows} × {cols} tokens</source>
        <translation>हर सेल {rows} × {cols} टोकन्स का औसत</translation>
    </message>
    <message>
        <source>{rows} × {cols} tokens per cell</source>
        <translation>हर सेल में {rows} × {cols} टोकन्स</translation>
    </message>
    <message>
        <source>zoomed to queries {first_query}–{last_query} × keys {first_key}–{last_key}, recomputed exactly from the layer&apos;s q and k at {detail} (outside it: {outside}; Reset zoom shows the whole map)</source>
        <translation>क्वेरीज़ {first_query}–{last_query} × कीज़ {first_key}–{last_key} पर ज़ूम, लेयर के q और k से सटीक रूप से फिर से निकाला गया, {detail} (इसके बाहर: {outside}; ज़ूम रीसेट करें पूरा मैप दिखाता है)</translation>
    </message>
    <message>
        <source>log₁₀ colours, {decades} decades below the largest weight</source>
        <translation>log₁₀ रंग, सबसे बड़े वेट से {decades} दशक नीचे तक</translation>
    </message>
    <message>
        <source>colours from 0 to the largest weight</source>
        <translation>रंग 0 से सबसे बड़े वेट तक</translation>
    </message>
    <message>
        <source>grey cells are masked (a causal model&apos;s future keys), not weight 0</source>
        <translation>धूसर सेल मास्क किए हुए हैं (कॉज़ल मॉडल की भविष्य की कीज़), 0 वेट नहीं</translation>
    </message>
    <message>
        <source>bidirectional: no cell is masked</source>
        <translation>दोतरफ़ा: कोई सेल मास्क नहीं</translation>
    </message>
    <message>
        <source>Real attention weights of layer {layer}, head {head}; {cell}; {scale}; {masked}.</source>
        <translation>लेयर {layer}, हेड {head} के असली अटेंशन वेट्स; {cell}; {scale}; {masked}।</translation>
    </message>
    <message>
        <source>Every head&apos;s attention ({rows} × {cols} pooled cells), each on its own log scale (white = most weight, 3 decades; light grey = masked), framed by {statistic}. Click a head to open it in the Attention tab.</source>
        <translation>हर हेड का अटेंशन ({rows} × {cols} पूल किए सेल), हर एक अपने लॉग स्केल पर (सफ़ेद = सबसे ज़्यादा वेट, 3 दशक; हल्का धूसर = मास्क), फ़्रेम का रंग: {statistic}। किसी हेड को अटेंशन टैब में खोलने के लिए उस पर क्लिक करें।</translation>
    </message>
    <message>
        <source>Left: mean weight at distance d = query − key over the queries that have a key there, one curve per head of the layer, coloured by the head&apos;s class (right)</source>
        <translation>बाएँ: दूरी d = क्वेरी − की पर औसत वेट, उन क्वेरीज़ पर जिनकी उस दूरी पर कोई की है; लेयर के हर हेड का एक वक्र, हेड की श्रेणी के रंग में (दाएँ)</translation>
    </message>
    <message>
        <source> (both sides pooled: |i − j|)</source>
        <translation> (दोनों तरफ़ मिलाकर: |i − j|)</translation>
    </message>
    <message>
        <source>; distance 0 (the token itself) is off the log axis.</source>
        <translation>; दूरी 0 (टोकन स्वयं) लॉग अक्ष पर नहीं आती।</translation>
    </message>
    <message>
        <source>Mean over queries of the weight on token 0 (left) and on tokens 0–{last} (right), per layer and head; 1 = every query attends only there (an attention sink).</source>
        <translation>टोकन 0 पर (बाएँ) और टोकन्स 0–{last} पर (दाएँ) वेट का क्वेरीज़ पर औसत, हर लेयर और हेड के लिए; 1 = हर क्वेरी केवल वहीं अटेंड करती है (अटेंशन सिंक)।</translation>
    </message>
    <message>
        <source>RoPE frequency usage needs a RoPE model; this one is {scheme}.</source>
        <translation>RoPE फ़्रीक्वेंसी का उपयोग देखने के लिए RoPE मॉडल चाहिए; यह {scheme} है।</translation>
    </message>
    <message>
        <source>Left: the chosen layer in orange, the other layers grey; right: every layer (rows) × pair (columns, shortest wavelength left). For each rotary pair: mean over tokens of ‖q_pair‖ × mean of ‖k_pair‖ (mean over heads), as a share of the layer&apos;s total — which frequencies carry the q·k score (Barbero et al. 2024). Red dashed: trained context {context}; green dotted: this run&apos;s {n} tokens. Pairs with wavelengths beyond the context barely rotate: semantic channels.</source>
        <translation>बाएँ: चुनी गई लेयर नारंगी में, बाक़ी लेयर्स धूसर; दाएँ: हर लेयर (पंक्तियाँ) × जोड़ा (कॉलम, सबसे छोटी वेवलेंथ बाईं ओर)। हर रोटरी जोड़े के लिए: टोकन्स पर ‖q_pair‖ का औसत × ‖k_pair‖ का औसत (हेड्स पर औसत), लेयर के कुल के हिस्से के रूप में — कौन-सी फ़्रीक्वेंसीज़ q·k स्कोर ढोती हैं (Barbero et al. 2024)। लाल डैश: ट्रेनिंग का कॉन्टेक्स्ट {context}; हरी बिंदुदार: इस रन के {n} टोकन्स। जिन जोड़ों की वेवलेंथ कॉन्टेक्स्ट से बड़ी है वे मुश्किल से घूमते हैं: सिमैंटिक चैनल।</translation>
    </message>
    <message>
        <source>This scheme ({scheme}) has no separable position term.</source>
        <translation>इस स्कीम ({scheme}) में अलग किया जा सकने वाला पोज़िशन टर्म नहीं है।</translation>
    </message>
    <message>
        <source>the same q and k with the rotation undone: what content alone scores</source>
        <translation>वही q और k, रोटेशन हटाकर: अकेला कंटेंट कितना स्कोर देता है</translation>
    </message>
    <message>
        <source>the position table&apos;s rows through this head&apos;s W_q and W_k (no bias, no LayerNorm)</source>
        <translation>पोज़िशन टेबल की पंक्तियाँ इस हेड के W_q और W_k से गुज़री हुई (बिना बायस, बिना लेयरनॉर्म)</translation>
    </message>
    <message>
        <source>, rotation&apos;s own part std {std}</source>
        <translation>, रोटेशन के अपने हिस्से का मानक विचलन {std}</translation>
    </message>
    <message>
        <source>Left: the real logits of layer {layer}, head {head}; right: {what}; each on its own symmetric colour scale. Spread (std) {real_std} vs {term_std}, correlation {correlation}{extra}.</source>
        <translation>बाएँ: लेयर {layer}, हेड {head} के असली लॉजिट्स; दाएँ: {what}; हर एक अपने सममित रंग-स्केल पर। फैलाव (मानक विचलन) {real_std} बनाम {term_std}, सहसंबंध {correlation}{extra}।</translation>
    </message>
    <message>
        <source>layer {layer}, head {head}: {kind}; {statistic} = {value} (click to open)</source>
        <translation>लेयर {layer}, हेड {head}: {kind}; {statistic} = {value} (खोलने के लिए क्लिक करें)</translation>
    </message>
    <message>
        <source>layer {layer}, head {head}: mean weight {value} at distance {distance}</source>
        <translation>लेयर {layer}, हेड {head}: दूरी {distance} पर औसत वेट {value}</translation>
    </message>
    <message>
        <source>layer {layer}, pair {pair} by wavelength ({wavelength} tokens): share {share}</source>
        <translation>लेयर {layer}, वेवलेंथ के क्रम में जोड़ा {pair} ({wavelength} टोकन्स): हिस्सा {share}</translation>
    </message>
    <message>
        <source>layer {layer}, query {position} &apos;{token}&apos;: entropy {without} nats without the scale, {with_} with it (×{scale}); uniform {uniform}</source>
        <translation>लेयर {layer}, क्वेरी {position} &apos;{token}&apos;: एन्ट्रॉपी स्केल के बिना {without} नैट, स्केल के साथ {with_} (×{scale}); एकसमान {uniform}</translation>
    </message>
    <message>
        <source>layer {layer}, head {head}: {kind}; previous token {previous}, local (≤ {window}) {local}, token 0 {first}, first {span} {first_span}, entropy {entropy} nats</source>
        <translation>लेयर {layer}, हेड {head}: {kind}; पिछला टोकन {previous}, लोकल (≤ {window}) {local}, टोकन 0 {first}, पहले {span} {first_span}, एंट्रॉपी {entropy} नैट</translation>
    </message>
    <message>
        <source>masked (a future key)</source>
        <translation>मास्क किया हुआ (भविष्य की की)</translation>
    </message>
    <message>
        <source>layer {layer}, head {head}: query {query} &apos;{query_token}&apos; → key {key} &apos;{key_token}&apos;: weight {value}</source>
        <translation>लेयर {layer}, हेड {head}: क्वेरी {query} &apos;{query_token}&apos; → की {key} &apos;{key_token}&apos;: वेट {value}</translation>
    </message>
    <message>
        <source>layer {layer}, head {head}: queries {first_query}–{last_query} (&apos;{query_token}&apos; …) → keys {first_key}–{last_key} (&apos;{key_token}&apos; …): mean weight {value}</source>
        <translation>लेयर {layer}, हेड {head}: क्वेरीज़ {first_query}–{last_query} (&apos;{query_token}&apos; …) → कीज़ {first_key}–{last_key} (&apos;{key_token}&apos; …): औसत वेट {value}</translation>
    </message>
    <message>
        <source>query cell {row}, key cell {col}: masked (a future key)</source>
        <translation>क्वेरी सेल {row}, की सेल {col}: मास्क किया हुआ (भविष्य की की)</translation>
    </message>
    <message>
        <source>query {query} &apos;{query_token}&apos; → key {key} &apos;{key_token}&apos;: real logit {real}, {kind} {term}</source>
        <translation>क्वेरी {query} &apos;{query_token}&apos; → की {key} &apos;{key_token}&apos;: असली लॉजिट {real}, {kind} {term}</translation>
    </message>
    <message>
        <source>{figure} — {model} on {text}, layer {layer}, head {head}</source>
        <translation>{figure} — {model}, {text} पर, लेयर {layer}, हेड {head}</translation>
    </message>
    <message>
        <source>Changing the layer runs the model again: {why}.</source>
        <translation>लेयर बदलने पर मॉडल फिर से रन होता है: {why}।</translation>
    </message>
    <message>
        <source>Every head is browsed without running again (kept: pooled maps {maps}</source>
        <translation>हर हेड बिना दोबारा रन किए देखा जा सकता है (रखे गए: पूल किए गए मैप {maps}</translation>
    </message>
    <message>
        <source>, each layer&apos;s q and k for zooming {qk}).</source>
        <translation>, ज़ूम के लिए हर लेयर के q और k {qk})।</translation>
    </message>
    <message>
        <source>; zoom detail only in layer {layer}: {why}).</source>
        <translation>; ज़ूम का ब्योरा केवल लेयर {layer} में: {why})।</translation>
    </message>
</context>
<context>
    <name>RunPanel</name>
    <message>
        <source>No text chosen</source>
        <translation>कोई टेक्स्ट नहीं चुना</translation>
    </message>
    <message>
        <source>Bundled sample text</source>
        <translation>साथ आया सैंपल टेक्स्ट</translation>
    </message>
    <message>
        <source>A .txt file</source>
        <translation>एक .txt फ़ाइल</translation>
    </message>
    <message>
        <source>Typed or pasted text</source>
        <translation>लिखा या चिपकाया टेक्स्ट</translation>
    </message>
    <message>
        <source>Attention, layer × head</source>
        <translation>अटेंशन, लेयर × हेड</translation>
    </message>
    <message>
        <source>Head grid</source>
        <translation>हेड ग्रिड</translation>
    </message>
    <message>
        <source>By distance</source>
        <translation>दूरी के अनुसार</translation>
    </message>
    <message>
        <source>Sink shares</source>
        <translation>सिंक हिस्से</translation>
    </message>
    <message>
        <source>RoPE frequencies</source>
        <translation>RoPE फ़्रीक्वेंसीज़</translation>
    </message>
    <message>
        <source>Position vs content</source>
        <translation>पोज़िशन बनाम कंटेंट</translation>
    </message>
    <message>
        <source>NoPE temperature</source>
        <translation>NoPE टेम्परेचर</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>स्वतः</translation>
    </message>
    <message>
        <source>auto: the Precision chosen in Edit &gt; Preferences</source>
        <translation>स्वतः: संपादन &gt; प्राथमिकताएँ में चुनी गई प्रिसिज़न</translation>
    </message>
    <message>
        <source>Precision of the model&apos;s weights and activations; every statistic is still accumulated in float32 / float64. auto: the Precision in Preferences (whose auto is the checkpoint&apos;s own dtype on a GPU, and on a CPU bfloat16 where its bf16 matrix product measures fast, else float32). Recorded in sessions and exports.</source>
        <translation>मॉडल के वेट्स और एक्टिवेशन्स का प्रिसिज़न; हर आँकड़ा फिर भी float32 / float64 में जोड़ा जाता है। स्वतः: प्राथमिकताओं में चुना गया प्रिसिज़न (जिसका स्वतः GPU पर चेकपॉइंट का अपना dtype है, और CPU पर bfloat16 जहाँ उसका bf16 मैट्रिक्स गुणन तेज़ मापा जाए, वरना float32)। सेशन और एक्सपोर्ट में दर्ज होता है।</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>दिखाएँ</translation>
    </message>
    <message>
        <source>Which figure of the run the panel shows.</source>
        <translation>पैनल रन का कौन-सा चित्र दिखाए।</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>टेक्स्ट</translation>
    </message>
    <message>
        <source>What the checkpoint runs on: the bundled sample, a .txt file, or typed text.</source>
        <translation>चेकपॉइंट किस पर चलेगा: साथ आया सैंपल, कोई .txt फ़ाइल, या लिखा हुआ टेक्स्ट।</translation>
    </message>
    <message>
        <source>Typed text</source>
        <translation>लिखा हुआ टेक्स्ट</translation>
    </message>
    <message>
        <source>The typed or pasted text (with Text = typed).</source>
        <translation>लिखा या चिपकाया गया टेक्स्ट (जब टेक्स्ट = लिखा हुआ)।</translation>
    </message>
    <message>
        <source>Text file</source>
        <translation>टेक्स्ट फ़ाइल</translation>
    </message>
    <message>
        <source>The .txt file (UTF-8) to run on (with Text = file).</source>
        <translation>जिस .txt फ़ाइल (UTF-8) पर चलाना है (जब टेक्स्ट = फ़ाइल)।</translation>
    </message>
    <message>
        <source>Text SHA-256</source>
        <translation>टेक्स्ट का SHA-256</translation>
    </message>
    <message>
        <source>SHA-256 of the text that was run, recorded so a reopened session notices a file that changed since.</source>
        <translation>चलाए गए टेक्स्ट का SHA-256, दर्ज किया गया ताकि दोबारा खोला गया सेशन बाद में बदली फ़ाइल को पहचान ले।</translation>
    </message>
    <message>
        <source>Max tokens</source>
        <translation>अधिकतम टोकन्स</translation>
    </message>
    <message>
        <source>Tokens of the text to run (its start; learned position tables cap it at their length).</source>
        <translation>टेक्स्ट के कितने टोकन्स चलाने हैं (शुरुआत से; लर्न्ड पोज़िशन टेबल्स इसे अपनी लंबाई तक सीमित करती हैं)।</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>प्रिसिज़न</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>लेयर</translation>
    </message>
    <message>
        <source>The layer shown large (its map is pooled for every head); in NoPE temperature, the NoPE layer drawn (the first NoPE layer when this one is rotated).</source>
        <translation>बड़ी दिखाई गई लेयर (इसका मैप हर हेड के लिए पूल किया जाता है); NoPE टेम्परेचर में, दिखाई जाने वाली NoPE लेयर (यह लेयर रोटेट होती हो तो पहली NoPE लेयर)।</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>हेड</translation>
    </message>
    <message>
        <source>The head shown large, and the one whose position and content terms are compared.</source>
        <translation>बड़ा दिखाया जाने वाला हेड, और वही जिसके पोज़िशन और कंटेंट टर्म्स की तुलना होती है।</translation>
    </message>
    <message>
        <source>Colour by</source>
        <translation>रंग का आधार</translation>
    </message>
    <message>
        <source>The positional statistic that colours (and with Sort, orders) the head grid.</source>
        <translation>वह पोज़िशनल आँकड़ा जो हेड ग्रिड को रंग देता है (और क्रमबद्ध के साथ, क्रम भी)।</translation>
    </message>
    <message>
        <source>Sort</source>
        <translation>क्रमबद्ध</translation>
    </message>
    <message>
        <source>Order each layer&apos;s heads by the statistic (highest first).</source>
        <translation>हर लेयर के हेड्स को आँकड़े के अनुसार क्रम दें (सबसे बड़ा पहले)।</translation>
    </message>
    <message>
        <source>Log colours</source>
        <translation>लॉग रंग</translation>
    </message>
    <message>
        <source>Attention weights on a log scale (small weights far from the diagonal are invisible on a linear one). Read-outs keep the weights.</source>
        <translation>अटेंशन वेट्स लॉग स्केल पर (विकर्ण से दूर के छोटे वेट लीनियर स्केल पर दिखते ही नहीं)। रीड-आउट में वेट्स वही रहते हैं।</translation>
    </message>
    <message>
        <source>the typed text has {n} characters; at most {limit} fit in a session: save it as a .txt file and open that instead.</source>
        <translation>लिखे गए टेक्स्ट में {n} अक्षर हैं; एक सेशन में अधिकतम {limit} आते हैं: इसे .txt फ़ाइल के रूप में सहेजें और वही खोलें।</translation>
    </message>
    <message>
        <source>Text = file needs a file: open a .txt file.</source>
        <translation>टेक्स्ट = फ़ाइल के लिए फ़ाइल चाहिए: कोई .txt फ़ाइल खोलें।</translation>
    </message>
</context>
<context>
    <name>Streaming</name>
    <message>
        <source>The text is not longer than the window: nothing is evicted, so the three curves are the same; choose a length above the window.</source>
        <extracomment>the paper&apos;s Table 1 / Fig. 3 numbers, drawn as the paper&apos;s (another model, text and length)</extracomment>
        <translation>टेक्स्ट विंडो से लंबा नहीं है: कुछ भी हटाया नहीं जाता, इसलिए तीनों कर्व्स एक जैसे हैं; विंडो से बड़ी लंबाई चुनें।</translation>
    </message>
    <message>
        <source>Needs sinks: once the first tokens leave the window (positions from {start}) perplexity is {window} with the window alone, {sinks} with the first {k} tokens kept and {full} with full context — as Xiao et al. found.</source>
        <translation>सिंक्स चाहिए: पहले टोकन्स के विंडो से निकलते ही (पोज़िशन {start} से) पर्प्लेक्सिटी केवल विंडो के साथ {window}, पहले {k} टोकन्स रखकर {sinks} और पूरे कॉन्टेक्स्ट के साथ {full} है — जैसा Xiao et al. ने पाया।</translation>
    </message>
    <message>
        <source>No sinks needed here: after position {start} the window alone gives perplexity {window}, the window + {k} sinks {sinks}, full context {full}; unlike Xiao et al.&apos;s models this one does not collapse.</source>
        <translation>यहाँ सिंक्स की ज़रूरत नहीं: पोज़िशन {start} के बाद केवल विंडो से पर्प्लेक्सिटी {window}, विंडो + {k} सिंक्स से {sinks}, पूरे कॉन्टेक्स्ट से {full}; Xiao et al. के मॉडलों के विपरीत यह मॉडल ढहता नहीं।</translation>
    </message>
    <message>
        <source>Sinks help partly: after position {start} the window alone gives perplexity {window}, the window + {k} sinks {sinks}, full context {full}.</source>
        <translation>सिंक्स आंशिक रूप से मदद करते हैं: पोज़िशन {start} के बाद केवल विंडो से पर्प्लेक्सिटी {window}, विंडो + {k} सिंक्स से {sinks}, पूरे कॉन्टेक्स्ट से {full}।</translation>
    </message>
</context>
<context>
    <name>Temperature</name>
    <message>
        <source>attn_temperature_tuning is off in this config: the scale is applied here.</source>
        <translation>इस कॉन्फ़िग में attn_temperature_tuning बंद है: स्केल यहाँ लगाया गया है।</translation>
    </message>
    <message>
        <source>this model applies no temperature: Llama 4&apos;s scale is applied here with attn_scale {a:g}, floor_scale {f:g}.</source>
        <translation>यह मॉडल कोई टेम्परेचर नहीं लगाता: Llama 4 का स्केल यहाँ attn_scale {a:g}, floor_scale {f:g} के साथ लगाया गया है।</translation>
    </message>
    <message>
        <source>this model applies no temperature: Llama 4&apos;s scale is applied here with attn_scale {a:g}, floor_scale {f:g} (Llama 4&apos;s defaults; other values: --attn-scale, --floor-scale).</source>
        <translation>यह मॉडल कोई टेम्परेचर नहीं लगाता: Llama 4 का स्केल यहाँ attn_scale {a:g}, floor_scale {f:g} के साथ लगाया गया है (Llama 4 के डिफ़ॉल्ट; दूसरे मान: --attn-scale, --floor-scale)।</translation>
    </message>
    <message>
        <source>this run did not keep layer {layer}&apos;s q and k ({why}): set Layer to {layer} and press Run.</source>
        <translation>इस रन ने लेयर {layer} के q और k नहीं रखे ({why}): लेयर को {layer} पर रखें और चलाएँ दबाएँ।</translation>
    </message>
    <message>
        <source>layer {layer} is not plain causal attention over every earlier token (a window or no mask): its entropy is not drawn.</source>
        <translation>लेयर {layer} हर पिछले टोकन पर सादा कॉज़ल अटेंशन नहीं है (विंडो या मास्क नहीं): इसकी एन्ट्रॉपी नहीं दिखाई जाती।</translation>
    </message>
    <message>
        <source>{name}: its own q and k</source>
        <translation>{name}: उसके अपने q और k</translation>
    </message>
    <message>
        <source>{name}: the q and k of this run</source>
        <translation>{name}: इस रन के q और k</translation>
    </message>
</context>
<context>
    <name>TextRun</name>
    <message>
        <source>Alice&apos;s Adventures in Wonderland, chapters I–VI (Lewis Carroll, 1865; public domain)</source>
        <translation>ऐलिस इन वंडरलैंड, अध्याय I–VI (लुइस कैरल, 1865; पब्लिक डोमेन)</translation>
    </message>
    <message>
        <source>weight on token 0</source>
        <translation>टोकन 0 पर वेट</translation>
    </message>
    <message>
        <source>weight on the previous token</source>
        <translation>पिछले टोकन पर वेट</translation>
    </message>
    <message>
        <source>weight within the local window</source>
        <translation>लोकल विंडो के भीतर वेट</translation>
    </message>
    <message>
        <source>entropy (nats)</source>
        <translation>एंट्रॉपी (नैट)</translation>
    </message>
    <message>
        <source>mean attended distance</source>
        <translation>अटेंड की गई औसत दूरी</translation>
    </message>
    <message>
        <source>no text file chosen: open a .txt file.</source>
        <translation>कोई टेक्स्ट फ़ाइल नहीं चुनी गई: कोई .txt फ़ाइल खोलें।</translation>
    </message>
    <message>
        <source>typed text</source>
        <translation>लिखा हुआ टेक्स्ट</translation>
    </message>
    <message>
        <source>no text chosen: type or paste some, open a .txt file, or pick the sample text.</source>
        <translation>कोई टेक्स्ट नहीं चुना गया: कुछ लिखें या चिपकाएँ, कोई .txt फ़ाइल खोलें, या सैंपल टेक्स्ट चुनें।</translation>
    </message>
    <message>
        <source>no checkpoint is open: open one (File &gt; Open, or File &gt; Open Sample) first.</source>
        <extracomment>&quot;run&quot; (the probe), or &quot;estimate&quot;: only the time estimate (a :class:`TimeEstimate`, or None for a probe too short to need one), so a panel can say it, and ask, before minutes of work an estimate measured before (phase &quot;estimate&quot; on the same settings): not measured again, and its prefix run still gives the first partial curve</extracomment>
        <translation>कोई चेकपॉइंट खुला नहीं है: पहले एक खोलें (फ़ाइल &gt; खोलें, या फ़ाइल &gt; सैंपल खोलें)।</translation>
    </message>
    <message>
        <source>unknown grid statistic {name}</source>
        <translation>अज्ञात ग्रिड आँकड़ा {name}</translation>
    </message>
    <message>
        <source>mean weight on the previous token ≥ 0.5</source>
        <translation>पिछले टोकन पर औसत वेट ≥ 0.5</translation>
    </message>
    <message>
        <source>mean weight on token 0 ≥ 0.5</source>
        <translation>टोकन 0 पर औसत वेट ≥ 0.5</translation>
    </message>
    <message>
        <source>mean weight within distance ≤ {window} ≥ 0.7</source>
        <translation>दूरी ≤ {window} के भीतर औसत वेट ≥ 0.7</translation>
    </message>
    <message>
        <source>Classes, in this order: previous-token if {previous}; sink if {sink}; local if {local}; else broad / content (local window {window} tokens).</source>
        <translation>श्रेणियाँ, इसी क्रम में: पिछला-टोकन अगर {previous}; सिंक अगर {sink}; लोकल अगर {local}; वरना व्यापक / कंटेंट (लोकल विंडो {window} टोकन्स)।</translation>
    </message>
    <message>
        <source>content (rotation removed)</source>
        <translation>कंटेंट (रोटेशन हटाकर)</translation>
    </message>
    <message>
        <source>position table</source>
        <translation>पोज़िशन टेबल</translation>
    </message>
    <message>
        <source>previous-token</source>
        <translation>पिछला-टोकन</translation>
    </message>
    <message>
        <source>sink</source>
        <translation>सिंक</translation>
    </message>
    <message>
        <source>local</source>
        <translation>लोकल</translation>
    </message>
    <message>
        <source>broad / content</source>
        <translation>व्यापक / कंटेंट</translation>
    </message>
    <message>
        <source>{scheme}, window {window}</source>
        <translation>{scheme}, विंडो {window}</translation>
    </message>
    <message>
        <source>layer {layer} was not kept by this run.</source>
        <translation>इस रन ने लेयर {layer} नहीं रखी।</translation>
    </message>
    <message>
        <source>zoom detail of layer {layer} needs its q and k, which this run did not keep ({why}): press Run to run this layer.</source>
        <translation>लेयर {layer} के ज़ूम ब्योरे के लिए उसके q और k चाहिए, जो इस रन ने नहीं रखे ({why}): यह लेयर रन करने के लिए ‘चलाएँ’ दबाएँ।</translation>
    </message>
    <message>
        <source>not asked for</source>
        <translation>माँगे नहीं गए</translation>
    </message>
    <message>
        <source>this model builds its own attention mask</source>
        <translation>यह मॉडल अपना अटेंशन मास्क खुद बनाता है</translation>
    </message>
    <message>
        <source>this model&apos;s layers have learned sinks</source>
        <translation>इस मॉडल की परतों में सीखे गए सिंक हैं</translation>
    </message>
    <message>
        <source>every head&apos;s pooled map would need {need}, over the {cap} kept for browsing heads</source>
        <extracomment>tokens past the limit that show a prefix&apos;s first tokens are the whole text&apos;s the most tokens one run or probe takes (memory is checked against the model as well)</extracomment>
        <translation>हर हेड के पूल किए गए मैप को {need} चाहिए, जो हेड देखने के लिए रखी गई {cap} सीमा से अधिक है</translation>
    </message>
    <message>
        <source>every layer&apos;s q and k would need {need}, over the {cap} left for them</source>
        <translation>हर लेयर के q और k को {need} चाहिए, जो उनके लिए बची {cap} सीमा से अधिक है</translation>
    </message>
</context>
</TS>
