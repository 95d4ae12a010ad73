<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="hi">
<context>
    <name>Cost</name>
    <message>
        <source>learned absolute</source>
        <translation>लर्न्ड एब्सोल्यूट</translation>
    </message>
    <message>
        <source>sinusoidal</source>
        <translation>साइनुसॉइडल</translation>
    </message>
    <message>
        <source>Shaw relative (keys + values)</source>
        <translation>Shaw रिलेटिव (कीज़ + वैल्यूज़)</translation>
    </message>
    <message>
        <source>T5 bias</source>
        <translation>T5 बायस</translation>
    </message>
    <message>
        <source>The article: relative encodings compute a distance matrix per attention head, which greatly increases memory, and complicate the KV cache that speeds up generation; RoPE gives relative positions without that memory and caching overhead.</source>
        <translation>लेख: रिलेटिव एनकोडिंग्स हर अटेंशन हेड के लिए दूरी मैट्रिक्स की गणना करती हैं, जिससे मेमोरी बहुत बढ़ती है, और जनरेशन को तेज़ करने वाले KV कैश को जटिल बनाती हैं; RoPE उस मेमोरी और कैशिंग ओवरहेड के बिना रिलेटिव पोज़िशन्स देता है।</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>मापा गया</translation>
    </message>
    <message>
        <source>predicted, too big to run here</source>
        <translation>अनुमानित, यहाँ चलाने के लिए बहुत बड़ा</translation>
    </message>
    <message>
        <source> and a generated token takes {ratio:.1f}× RoPE&apos;s time (it recomputes a relative term for every cached key)</source>
        <translation> और एक जनरेट किया गया टोकन RoPE से {ratio:.1f}× समय लेता है (वह हर कैश की गई की के लिए रिलेटिव टर्म दोबारा गिनता है)</translation>
    </message>
    <message>
        <source>; a generated token takes {ratio:.1f}× RoPE&apos;s time: the relative term Shaw recomputes for every cached key each step is small beside the attention itself at this size</source>
        <translation>; एक जनरेट किया गया टोकन RoPE से {ratio:.1f}× समय लेता है: हर स्टेप में हर कैश की गई की के लिए Shaw जो रिलेटिव टर्म दोबारा गिनता है, वह इस आकार पर अटेंशन के मुकाबले छोटा है</translation>
    </message>
    <message>
        <source>Agrees</source>
        <translation>सहमत</translation>
    </message>
    <message>
        <source>Does not agree</source>
        <translation>सहमत नहीं</translation>
    </message>
    <message>
        <source>{agree} with the article: at {n} tokens on the {model} model, Shaw relative positions need {shaw} ({how}) against RoPE&apos;s {rope} (×{ratio:.0f}){step}.</source>
        <translation>लेख से {agree}: {model} मॉडल पर {n} टोकन्स पर Shaw रिलेटिव पोज़िशन्स को {shaw} ({how}) चाहिए, RoPE के {rope} के मुकाबले (×{ratio:.0f}){step}।</translation>
    </message>
    <message>
        <source>Nothing measured to compare Shaw with RoPE: run both at one length.</source>
        <translation>Shaw की RoPE से तुलना के लिए कुछ मापा नहीं गया: दोनों को एक लंबाई पर चलाएँ।</translation>
    </message>
    <message>
        <source>unknown model {name}; choose from {allowed}.</source>
        <translation>अज्ञात मॉडल {name}; {allowed} में से चुनें।</translation>
    </message>
    <message>
        <source>unknown scheme {name}; choose from {allowed}.</source>
        <translation>अज्ञात स्कीम {name}; {allowed} में से चुनें।</translation>
    </message>
    <message>
        <source>lengths must be between 2 and {limit}.</source>
        <translation>लंबाइयाँ 2 और {limit} के बीच होनी चाहिए।</translation>
    </message>
    <message>
        <source>threads must be between 1 and 256.</source>
        <translation>थ्रेड्स 1 और 256 के बीच होने चाहिए।</translation>
    </message>
    <message>
        <source>not run: needs about {need}, more than the {cap} allowed here</source>
        <translation>चलाया नहीं गया: लगभग {need} चाहिए, यहाँ अनुमत {cap} से अधिक</translation>
    </message>
</context>
<context>
    <name>Encodings</name>
    <message>
        <source>head {head} does not exist with {heads} heads; choose 0–{last}.</source>
        <translation>{heads} हेड्स में हेड {head} मौजूद नहीं है; 0–{last} में से चुनें।</translation>
    </message>
    <message>
        <source>future keys are masked (blank)</source>
        <translation>भविष्य की कीज़ मास्क हैं (खाली)</translation>
    </message>
    <message>
        <source>no mask: the penalty grows both ways</source>
        <translation>कोई मास्क नहीं: पेनल्टी दोनों ओर बढ़ती है</translation>
    </message>
    <message>
        <source>ALiBi bias, head {head} of {heads} (slope {slope:.4g} = 1/{inverse:.4g}): query i × key j, value −slope·(i−j); {mask}. Nothing is added to embeddings: the farther a key, the larger the penalty before softmax, at any length.</source>
        <translation>ALiBi बायस, {heads} में से हेड {head} (स्लोप {slope:.4g} = 1/{inverse:.4g}): क्वेरी i × की j, मान −स्लोप·(i−j); {mask}। एम्बेडिंग्स में कुछ नहीं जोड़ा जाता: की जितनी दूर, softmax से पहले पेनल्टी उतनी बड़ी — किसी भी लंबाई पर।</translation>
    </message>
    <message>
        <source>ALiBi (linear bias)</source>
        <translation>ALiBi (लीनियर बायस)</translation>
    </message>
    <message>
        <source>Subtracts slope·distance from attention logits, a different slope per head.</source>
        <translation>अटेंशन लॉजिट्स में से स्लोप·दूरी घटाता है, हर हेड का स्लोप अलग।</translation>
    </message>
    <message>
        <source>query position</source>
        <translation>क्वेरी पोज़िशन</translation>
    </message>
    <message>
        <source>key position</source>
        <translation>की पोज़िशन</translation>
    </message>
    <message>
        <source>bias</source>
        <translation>बायस</translation>
    </message>
    <message>
        <source>query position {n:,}: its bias on every key</source>
        <translation>क्वेरी पोज़िशन {n:,}: हर की पर इसका बायस</translation>
    </message>
    <message>
        <source>positions</source>
        <extracomment>the names of the tables&apos; axes in the plural (&quot;across dimensions&quot;), by their singular</extracomment>
        <translation>पोज़िशन्स</translation>
    </message>
    <message>
        <source>dimensions</source>
        <translation>डायमेंशन्स</translation>
    </message>
    <message>
        <source>query positions</source>
        <translation>क्वेरी पोज़िशन्स</translation>
    </message>
    <message>
        <source>key positions</source>
        <translation>की पोज़िशन्स</translation>
    </message>
    <message>
        <source>position</source>
        <translation>पोज़िशन</translation>
    </message>
    <message>
        <source>dimension</source>
        <translation>डायमेंशन</translation>
    </message>
    <message>
        <source>value</source>
        <translation>मान</translation>
    </message>
    <message>
        <source>{axis} {n:,}</source>
        <translation>{axis} {n:,}</translation>
    </message>
    <message>
        <source>{axis} {n:,}: its vector across {columns}</source>
        <translation>{axis} {n:,}: सभी {columns} में इसका वेक्टर</translation>
    </message>
    <message>
        <source>position {n:,} does not exist: the learned table has {n:,} rows (positions 0–{last:,}). Show at most {n:,} positions, or use an encoding that extrapolates (RoPE, ALiBi).</source>
        <translation>पोज़िशन {n:,} मौजूद नहीं है: लर्न्ड टेबल में {n:,} पंक्तियाँ हैं (पोज़िशन्स 0–{last:,})। अधिक से अधिक {n:,} पोज़िशन्स दिखाएँ, या ऐसी एनकोडिंग लें जो एक्सट्रैपोलेट करती है (RoPE, ALiBi)।</translation>
    </message>
    <message>
        <source>random init</source>
        <translation>रैंडम इनिशियलाइज़ेशन</translation>
    </message>
    <message>
        <source>position {bad:,} does not exist in the {table}: it has {n:,} positions (0–{last:,}), so a sequence of {length:,} tokens cannot be encoded. Truncate the input, or use an encoding that extrapolates (RoPE, ALiBi).</source>
        <translation>पोज़िशन {bad:,} {table} में मौजूद नहीं है: इसमें {n:,} पोज़िशन्स हैं (0–{last:,}), इसलिए {length:,} टोकन्स का सीक्वेंस एनकोड नहीं किया जा सकता। इनपुट छोटा करें, या ऐसी एनकोडिंग लें जो एक्सट्रैपोलेट करती है (RoPE, ALiBi)।</translation>
    </message>
    <message>
        <source>, first {n} row(s) skipped</source>
        <translation>, पहली {n} पंक्ति(याँ) छोड़ी गईं</translation>
    </message>
    <message>
        <source>Trained learned table {tensor} of {file}: {n:,} of {total:,} positions × {d} dims{skipped}. Position {total:,} does not exist.</source>
        <translation>{file} की ट्रेन की गई लर्न्ड टेबल {tensor}: {total:,} में से {n:,} पोज़िशन्स × {d} डायमेंशन्स{skipped}। पोज़िशन {total:,} मौजूद ही नहीं है।</translation>
    </message>
    <message>
        <source>Learned absolute table ({name}, seed {seed}): {n:,} of {total:,} rows × {d} dims. Untrained rows are noise with no structure; position {total:,} does not exist.</source>
        <translation>लर्न्ड एब्सोल्यूट टेबल ({name}, सीड {seed}): {total:,} में से {n:,} पंक्तियाँ × {d} डायमेंशन्स। बिना ट्रेनिंग की पंक्तियाँ बिना किसी संरचना का शोर हैं; पोज़िशन {total:,} मौजूद ही नहीं है।</translation>
    </message>
    <message>
        <source>Learned absolute</source>
        <translation>लर्न्ड एब्सोल्यूट</translation>
    </message>
    <message>
        <source>A trained [max_positions, d] table; positions past its end do not exist.</source>
        <translation>ट्रेन की गई [max_positions, d] टेबल; इसके अंत के आगे की पोज़िशन्स मौजूद नहीं हैं।</translation>
    </message>
    <message>
        <source>NoPE (no position)</source>
        <translation>NoPE (कोई पोज़िशन नहीं)</translation>
    </message>
    <message>
        <source>Nothing added anywhere: every position looks the same to attention.</source>
        <translation>कहीं कुछ नहीं जोड़ा जाता: अटेंशन को हर पोज़िशन एक जैसी दिखती है।</translation>
    </message>
    <message>
        <source>NoPE: {n:,} positions × {d} dims of zeros. Every position is identical, so without a causal mask the model sees a bag of words; a causal mask alone still leaks order.</source>
        <translation>NoPE: {n:,} पोज़िशन्स × {d} डायमेंशन्स, सब शून्य। हर पोज़िशन एक जैसी है, इसलिए कॉज़ल मास्क के बिना मॉडल को केवल शब्दों का थैला दिखता है; अकेला कॉज़ल मास्क फिर भी क्रम की कुछ जानकारी दे देता है।</translation>
    </message>
    <message>
        <source>floor_scale must be positive (Llama 4 uses 8192).</source>
        <translation>floor_scale धनात्मक होना चाहिए (Llama 4 में 8192 है)।</translation>
    </message>
    <message>
        <source>max distance must exceed the {exact} exact buckets; raise it above {exact}.</source>
        <translation>अधिकतम दूरी {exact} सटीक बकेट से अधिक होनी चाहिए; इसे {exact} से ऊपर करें।</translation>
    </message>
    <message>
        <source>bucket index</source>
        <translation>बकेट इंडेक्स</translation>
    </message>
    <message>
        <source>bias, head {head}</source>
        <translation>बायस, हेड {head}</translation>
    </message>
    <message>
        <source>bidirectional (keys after the query use the upper half)</source>
        <translation>द्विदिश (क्वेरी के बाद की कीज़ ऊपरी आधे बकेट लेती हैं)</translation>
    </message>
    <message>
        <source>causal (future keys → bucket 0)</source>
        <translation>कॉज़ल (भविष्य की कीज़ → बकेट 0)</translation>
    </message>
    <message>
        <source>T5 relative {what}: query i × key j, {buckets} buckets, max distance {far}, {direction}. Near distances get their own bucket; far ones share log-spaced buckets. Same value on every diagonal.</source>
        <translation>T5 रिलेटिव {what}: क्वेरी i × की j, {buckets} बकेट, अधिकतम दूरी {far}, {direction}। पास की दूरियों को अपना अलग बकेट मिलता है; दूर की दूरियाँ लॉग-अंतराल वाले बकेट साझा करती हैं। हर विकर्ण पर एक ही मान।</translation>
    </message>
    <message>
        <source>Relative: T5 buckets</source>
        <translation>रिलेटिव: T5 बकेट</translation>
    </message>
    <message>
        <source>A learned scalar per log-spaced distance bucket and head, added to logits.</source>
        <translation>हर लॉग-अंतराल दूरी-बकेट और हेड के लिए एक लर्न्ड संख्या, लॉजिट्स में जोड़ी जाती है।</translation>
    </message>
    <message>
        <source>bucket</source>
        <translation>बकेट</translation>
    </message>
    <message>
        <source>query position {n:,}: the bucket of every key</source>
        <translation>क्वेरी पोज़िशन {n:,}: हर की का बकेट</translation>
    </message>
    <message>
        <source>Relative: Shaw (clipped)</source>
        <translation>रिलेटिव: Shaw (क्लिप्ड)</translation>
    </message>
    <message>
        <source>A learned vector per clipped distance clip(j−i, −k, k), used inside attention.</source>
        <translation>हर क्लिप की गई दूरी clip(j−i, −k, k) के लिए एक लर्न्ड वेक्टर, अटेंशन के भीतर उपयोग होता है।</translation>
    </message>
    <message>
        <source>Shaw relative distance clip(j − i, −{k}, {k}): query i × key j. Each value indexes one of {vectors} learned vectors; beyond ±{k} all distances look alike. Depends only on j − i, never on absolute position.</source>
        <translation>Shaw रिलेटिव दूरी clip(j − i, −{k}, {k}): क्वेरी i × की j। हर मान {vectors} लर्न्ड वेक्टरों में से एक को चुनता है; ±{k} के आगे सभी दूरियाँ एक जैसी दिखती हैं। केवल j − i पर निर्भर, एब्सोल्यूट पोज़िशन पर कभी नहीं।</translation>
    </message>
    <message>
        <source>clipped distance</source>
        <translation>क्लिप की गई दूरी</translation>
    </message>
    <message>
        <source>query position {n:,}: the clipped distance to every key</source>
        <translation>क्वेरी पोज़िशन {n:,}: हर की तक क्लिप की गई दूरी</translation>
    </message>
    <message>
        <source>head_dim {head_dim} × rotary fraction {fraction:g} = {dim}: the rotary part must be an even number of dimensions ≥ 2; change either value.</source>
        <translation>head_dim {head_dim} × रोटरी हिस्सा {fraction:g} = {dim}: रोटरी भाग में डायमेंशन्स की संख्या सम और ≥ 2 होनी चाहिए; दोनों में से कोई एक मान बदलें।</translation>
    </message>
    <message>
        <source>NTK scaling raises the base to the power dim/(dim − 2), which needs a rotary part of at least 4 dimensions (now {dim}); raise head_dim or the rotary fraction.</source>
        <translation>NTK स्केलिंग बेस को dim/(dim − 2) की घात तक बढ़ाती है, जिसके लिए रोटरी भाग में कम से कम 4 डायमेंशन्स चाहिए (अभी {dim}); head_dim या रोटरी हिस्सा बढ़ाएँ।</translation>
    </message>
    <message>
        <source>Llama-3 high_freq_factor ({high:g}) must be at least low_freq_factor ({low:g}); raise the first or lower the second.</source>
        <translation>Llama-3 का high_freq_factor ({high:g}) कम से कम low_freq_factor ({low:g}) जितना होना चाहिए; पहला बढ़ाएँ या दूसरा घटाएँ।</translation>
    </message>
    <message>
        <source>YaRN beta_fast ({fast:g}) must be greater than beta_slow ({slow:g}); raise beta_fast or lower beta_slow.</source>
        <translation>YaRN का beta_fast ({fast:g}) beta_slow ({slow:g}) से बड़ा होना चाहिए; beta_fast बढ़ाएँ या beta_slow घटाएँ।</translation>
    </message>
    <message>
        <source>Not used with scaling &apos;{kind}&apos;; used by {users}.</source>
        <translation>स्केलिंग &apos;{kind}&apos; के साथ उपयोग नहीं होता; इनमें उपयोग होता है: {users}।</translation>
    </message>
    <message>
        <source>no factor given: derived as max_position_embeddings / original = {factor:g}, as transformers does.</source>
        <translation>फ़ैक्टर नहीं दिया गया: max_position_embeddings / मूल = {factor:g} से निकाला गया, जैसा transformers करता है।</translation>
    </message>
    <message>
        <source>factor {factor:g} disagrees with max_position_embeddings / original = {extended:,} / {original:,} = {implied:g}; the frequencies use the explicit factor, as transformers does.</source>
        <translation>फ़ैक्टर {factor:g} max_position_embeddings / मूल = {extended:,} / {original:,} = {implied:g} से मेल नहीं खाता; फ़्रीक्वेंसीज़ दिया गया फ़ैक्टर लेती हैं, जैसा transformers करता है।</translation>
    </message>
    <message>
        <source> (only {rotary} of {dim} dims rotate)</source>
        <translation> ({dim} में से केवल {rotary} डायमेंशन्स घूमते हैं)</translation>
    </message>
    <message>
        <source>, {kind} scaling ×{factor:g}</source>
        <translation>, {kind} स्केलिंग ×{factor:g}</translation>
    </message>
    <message>
        <source> (cos/sin × attention factor {factor:.4g})</source>
        <translation> (cos/sin × अटेंशन फ़ैक्टर {factor:.4g})</translation>
    </message>
    <message>
        <source>RoPE cos | sin tables: {n:,} positions × {pairs} pairs each{part}, base {base:g}{scaling}. Pair i turns by θ_i per position: from one turn every {fastest:.1f} positions (left) to one every {slowest:,.0f} (right). Nothing is added to the embedding; q and k are rotated inside attention.</source>
        <translation>RoPE cos | sin टेबल्स: {n:,} पोज़िशन्स × हर एक में {pairs} जोड़ियाँ{part}, बेस {base:g}{scaling}। जोड़ी i हर पोज़िशन पर θ_i घूमती है: हर {fastest:.1f} पोज़िशन्स में एक चक्कर (बाएँ) से लेकर हर {slowest:,.0f} में एक (दाएँ) तक। एम्बेडिंग में कुछ नहीं जोड़ा जाता; q और k अटेंशन के भीतर घुमाए जाते हैं।</translation>
    </message>
    <message>
        <source>RoPE (rotary)</source>
        <translation>RoPE (रोटरी)</translation>
    </message>
    <message>
        <source>Rotates q/k pairs by position; q·k depends only on the distance m − n. Scaling variants stretch the context (PI, NTK, YaRN, Llama-3, LongRoPE).</source>
        <translation>q/k जोड़ियों को पोज़िशन के अनुसार घुमाता है; q·k केवल दूरी m − n पर निर्भर करता है। स्केलिंग के रूप कॉन्टेक्स्ट को खींचकर बढ़ाते हैं (PI, NTK, YaRN, Llama-3, LongRoPE)।</translation>
    </message>
    <message>
        <source>cos pairs | sin pairs</source>
        <translation>cos जोड़ियाँ | sin जोड़ियाँ</translation>
    </message>
    <message>
        <source>cos of pair {pair:,}</source>
        <translation>जोड़ी {pair:,} का cos</translation>
    </message>
    <message>
        <source>sin of pair {pair:,}</source>
        <translation>जोड़ी {pair:,} का sin</translation>
    </message>
    <message>
        <source>position {n:,}: cos and sin of every pair&apos;s angle</source>
        <translation>पोज़िशन {n:,}: हर जोड़ी के कोण का cos और sin</translation>
    </message>
    <message>
        <source>Sinusoidal ({layout}): {n:,} positions × {d} dimensions, base {base:g}. Left columns oscillate fast (wavelength 2π); right ones barely move (up to {longest:,.0f} positions), so nearby and distant positions are told apart at many scales. Values stay in [−1, 1].</source>
        <translation>साइनुसॉइडल ({layout}): {n:,} पोज़िशन्स × {d} डायमेंशन्स, बेस {base:g}। बाएँ कॉलम तेज़ी से दोलन करते हैं (वेवलेंथ 2π); दाएँ कॉलम मुश्किल से हिलते हैं ({longest:,.0f} पोज़िशन्स तक), इसलिए पास और दूर की पोज़िशन्स कई पैमानों पर अलग पहचानी जाती हैं। मान [−1, 1] में रहते हैं।</translation>
    </message>
    <message>
        <source>Sinusoidal (fixed)</source>
        <translation>साइनुसॉइडल (फ़िक्स्ड)</translation>
    </message>
    <message>
        <source>Fixed sines and cosines of geometric frequencies, added to token embeddings.</source>
        <translation>ज्यामितीय फ़्रीक्वेंसीज़ के फ़िक्स्ड साइन और कोसाइन, टोकन एम्बेडिंग्स में जोड़े जाते हैं।</translation>
    </message>
</context>
<context>
    <name>Example</name>
    <message>
        <source>Sinusoidal (added)</source>
        <translation>साइनुसॉइडल (जोड़ी जाती है)</translation>
    </message>
    <message>
        <source>Learned absolute (added)</source>
        <translation>लर्न्ड एब्सोल्यूट (जोड़ी जाती है)</translation>
    </message>
    <message>
        <source>RoPE (rotated)</source>
        <translation>RoPE (घुमाया जाता है)</translation>
    </message>
    <message>
        <source>ALiBi / NoPE (unchanged)</source>
        <translation>ALiBi / NoPE (अपरिवर्तित)</translation>
    </message>
    <message>
        <source> The same word at position {other} gives {vector} (distance {distance:.3f} from position {position}).</source>
        <translation> वही शब्द पोज़िशन {other} पर {vector} देता है (पोज़िशन {position} से दूरी {distance:.3f})।</translation>
    </message>
    <message>
        <source>&quot;{word}&quot; at position {position}, RoPE ({layout} pairs, base {base:g}): nothing is added; each pair of dimensions is rotated by position·θ_i (fastest pair {fastest:.1f}°). Length kept: |embedding| = {norm:.4f}, |rotated| = {rotated:.4f}. Result {vector}.{moved}</source>
        <translation>पोज़िशन {position} पर &quot;{word}&quot;, RoPE ({layout} जोड़ियाँ, बेस {base:g}): कुछ नहीं जोड़ा जाता; डायमेंशन्स की हर जोड़ी पोज़िशन·θ_i जितनी घुमाई जाती है (सबसे तेज़ जोड़ी {fastest:.1f}°)। लंबाई वही रहती है: |एम्बेडिंग| = {norm:.4f}, |घुमाया हुआ| = {rotated:.4f}। नतीजा {vector}।{moved}</translation>
    </message>
    <message>
        <source>&quot;{word}&quot; at position {position} with ALiBi or NoPE: the embedding enters unchanged {vector}; position acts later, as an attention bias (ALiBi) or only through the causal mask (NoPE). The word looks identical at every position.</source>
        <translation>ALiBi या NoPE के साथ पोज़िशन {position} पर &quot;{word}&quot;: एम्बेडिंग बिना बदले {vector} अंदर जाती है; पोज़िशन बाद में असर करती है, अटेंशन बायस के रूप में (ALiBi) या केवल कॉज़ल मास्क से (NoPE)। शब्द हर पोज़िशन पर एक जैसा दिखता है।</translation>
    </message>
    <message>
        <source>sinusoid ({layout}, base {base:g})</source>
        <translation>साइनुसॉइड ({layout}, बेस {base:g})</translation>
    </message>
    <message>
        <source>learned table row (seeded random init)</source>
        <translation>लर्न्ड टेबल की पंक्ति (सीड वाला रैंडम इनिशियलाइज़ेशन)</translation>
    </message>
    <message>
        <source>&quot;{word}&quot; at position {position}, d_model {d}: embedding {embedding} + {what} {positional} = input {combined}; the sum changes both length (|emb| {norm:.3f} → {combined_norm:.3f}) and direction.{moved}</source>
        <translation>पोज़िशन {position} पर &quot;{word}&quot;, d_model {d}: एम्बेडिंग {embedding} + {what} {positional} = इनपुट {combined}; जोड़ने से लंबाई (|एम्बेडिंग| {norm:.3f} → {combined_norm:.3f}) और दिशा दोनों बदलती हैं।{moved}</translation>
    </message>
    <message>
        <source>Article&apos;s example</source>
        <translation>लेख का उदाहरण</translation>
    </message>
    <message>
        <source>&quot;DataCamp&quot;, d_model 4, position 0, sinusoidal, compared with position 5</source>
        <translation>&quot;DataCamp&quot;, d_model 4, पोज़िशन 0, साइनुसॉइडल, पोज़िशन 5 से तुलना</translation>
    </message>
    <message>
        <source>dimension</source>
        <translation>डायमेंशन</translation>
    </message>
    <message>
        <source>value</source>
        <translation>मान</translation>
    </message>
    <message>
        <source>Hover over the bars for the numbers of a dimension.</source>
        <translation>किसी डायमेंशन की संख्याओं के लिए बार्स पर पॉइंटर रखें।</translation>
    </message>
    <message>
        <source>embedding</source>
        <translation>एम्बेडिंग</translation>
    </message>
    <message>
        <source>rotated at {position}</source>
        <translation>{position} पर घुमाया हुआ</translation>
    </message>
    <message>
        <source>input at {position}</source>
        <translation>{position} पर इनपुट</translation>
    </message>
    <message>
        <source>angle at {position} (rad)</source>
        <translation>{position} पर कोण (rad)</translation>
    </message>
    <message>
        <source>dim {i}</source>
        <translation>डायमेंशन {i}</translation>
    </message>
    <message>
        <source>length</source>
        <translation>लंबाई</translation>
    </message>
    <message>
        <source>pair {k}: dims {a}, {b}</source>
        <translation>जोड़ी {k}: डायमेंशन्स {a}, {b}</translation>
    </message>
    <message>
        <source>pair {k}: turned {degrees:.1f}°, length {length:.3f} kept</source>
        <translation>जोड़ी {k}: {degrees:.1f}° घूमी, लंबाई {length:.3f} वही रही</translation>
    </message>
    <message>
        <source>pair {k}: length {before:.3f} → {after:.3f}</source>
        <translation>जोड़ी {k}: लंबाई {before:.3f} → {after:.3f}</translation>
    </message>
    <message>
        <source>pair {k}: unchanged</source>
        <translation>जोड़ी {k}: अपरिवर्तित</translation>
    </message>
    <message>
        <source>pair view: ({x:+.3f}, {y:+.3f}), length {length:.3f}, angle {angle:.1f}°</source>
        <translation>जोड़ी दृश्य: ({x:+.3f}, {y:+.3f}), लंबाई {length:.3f}, कोण {angle:.1f}°</translation>
    </message>
    <message>
        <source>dim {dim}: embedding {embedding:+.4f}, turned by {angle:.4f} rad → {combined:+.4f} (at {other}: {other_value:+.4f})</source>
        <translation>डायमेंशन {dim}: एम्बेडिंग {embedding:+.4f}, {angle:.4f} rad घुमाया → {combined:+.4f} ({other} पर: {other_value:+.4f})</translation>
    </message>
    <message>
        <source>dim {dim}: embedding {embedding:+.4f} + PE {pe:+.4f} = {combined:+.4f} (at {other}: {other_value:+.4f})</source>
        <translation>डायमेंशन {dim}: एम्बेडिंग {embedding:+.4f} + PE {pe:+.4f} = {combined:+.4f} ({other} पर: {other_value:+.4f})</translation>
    </message>
    <message>
        <source>Worked example — &quot;{word}&quot; at position {position}, {scheme}</source>
        <translation>हल किया हुआ उदाहरण — पोज़िशन {position} पर &quot;{word}&quot;, {scheme}</translation>
    </message>
</context>
<context>
    <name>Extrapolation</name>
    <message>
        <source>fits (nothing to extrapolate)</source>
        <extracomment>What a verdict says, in words that do not read as advice: &quot;extrapolates&quot; only means the formula is defined past L — not that a model using it keeps working there (MEASURED). (The texts here are marked messages: English as they are, translated where shown.)</extracomment>
        <translation>फ़िट है (एक्सट्रैपोलेट करने को कुछ नहीं)</translation>
    </message>
    <message>
        <source>formula defined past the trained length</source>
        <translation>सूत्र ट्रेनिंग लंबाई के आगे भी परिभाषित है</translation>
    </message>
    <message>
        <source>rescaled: every angle within those trained</source>
        <translation>रीस्केल किया गया: हर कोण ट्रेन किए गए कोणों के भीतर</translation>
    </message>
    <message>
        <source>cannot (no positions past the table)</source>
        <translation>संभव नहीं (टेबल के आगे कोई पोज़िशन नहीं)</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>फ़िट है</translation>
    </message>
    <message>
        <source>defined past L</source>
        <translation>L के आगे परिभाषित</translation>
    </message>
    <message>
        <source>within trained angles</source>
        <translation>ट्रेन किए गए कोणों के भीतर</translation>
    </message>
    <message>
        <source>no rows past L</source>
        <translation>L के आगे कोई पंक्ति नहीं</translation>
    </message>
    <message>
        <source>measured, it degrades past the trained length: perplexity 20.05 at 512 tokens → 43.54 at 1,012 (Press et al. 2022, trained on 512)</source>
        <extracomment>What measurements found, per scheme (the formulas above say only what is defined). Press et al. 2022 (ALiBi), Fig. 1: WikiText-103 language models trained on 512 tokens, evaluated longer.</extracomment>
        <translation>मापने पर, यह ट्रेनिंग लंबाई के आगे बिगड़ती है: पर्प्लेक्सिटी 512 टोकन्स पर 20.05 → 1,012 पर 43.54 (Press et al. 2022, 512 पर ट्रेन किया गया)</translation>
    </message>
    <message>
        <source>measured unscaled, rotary also degrades past the trained length (Press et al. 2022); context extension rescales it (the scalings below), usually with a short fine-tune at the new length</source>
        <translation>बिना स्केलिंग के मापने पर, रोटरी भी ट्रेनिंग लंबाई के आगे बिगड़ती है (Press et al. 2022); कॉन्टेक्स्ट विस्तार इसे रीस्केल करता है (नीचे की स्केलिंग्स), आम तौर पर नई लंबाई पर थोड़े फ़ाइन-ट्यून के साथ</translation>
    </message>
    <message>
        <source>measured, the T5 bias holds up better than sinusoidal or rotary past the trained length, at a higher compute cost (Press et al. 2022)</source>
        <translation>मापने पर, ट्रेनिंग लंबाई के आगे T5 बायस साइनुसॉइडल या रोटरी से बेहतर टिकता है, पर गणना की लागत अधिक है (Press et al. 2022)</translation>
    </message>
    <message>
        <source>measured, perplexity stays about flat well past the trained length — the result ALiBi was proposed for (Press et al. 2022)</source>
        <translation>मापने पर, पर्प्लेक्सिटी ट्रेनिंग लंबाई से काफ़ी आगे तक लगभग सपाट रहती है — वही नतीजा जिसके लिए ALiBi प्रस्तावित किया गया था (Press et al. 2022)</translation>
    </message>
    <message>
        <source>a model cannot even look positions past its table up</source>
        <translation>मॉडल अपनी टेबल के आगे की पोज़िशन्स देख ही नहीं सकता</translation>
    </message>
    <message>
        <source>measured: degrades (perplexity 20.05 → 43.54 at 2× the trained length)</source>
        <extracomment>The same findings in a few words, for the one-line verdicts (the full sentences above go with each verdict&apos;s reasons).</extracomment>
        <translation>मापा गया: बिगड़ती है (ट्रेनिंग लंबाई के 2× पर पर्प्लेक्सिटी 20.05 → 43.54)</translation>
    </message>
    <message>
        <source>measured: degrades too; the scalings below rescale it</source>
        <translation>मापा गया: यह भी बिगड़ती है; नीचे की स्केलिंग्स इसे रीस्केल करती हैं</translation>
    </message>
    <message>
        <source>measured: holds up better than sinusoidal or rotary</source>
        <translation>मापा गया: साइनुसॉइडल या रोटरी से बेहतर टिकता है</translation>
    </message>
    <message>
        <source>measured: perplexity about flat far past the trained length</source>
        <translation>मापा गया: ट्रेनिंग लंबाई से बहुत आगे तक पर्प्लेक्सिटी लगभग सपाट</translation>
    </message>
    <message>
        <source>RoPE, unscaled</source>
        <extracomment>RoPE context-extension methods compared (Hugging Face ``rope_type`` names; &quot;ntk&quot; is static NTK-aware).</extracomment>
        <translation>RoPE, बिना स्केलिंग</translation>
    </message>
    <message>
        <source>RoPE + linear (PI)</source>
        <translation>RoPE + लीनियर (PI)</translation>
    </message>
    <message>
        <source>RoPE + NTK-aware</source>
        <translation>RoPE + NTK-आधारित</translation>
    </message>
    <message>
        <source>RoPE + dynamic NTK</source>
        <translation>RoPE + डायनेमिक NTK</translation>
    </message>
    <message>
        <source>RoPE + YaRN</source>
        <translation>RoPE + YaRN</translation>
    </message>
    <message>
        <source>RoPE + Llama-3</source>
        <translation>RoPE + Llama-3</translation>
    </message>
    <message>
        <source>every distance up to {n:,} was seen in training</source>
        <translation>{n:,} तक की हर दूरी ट्रेनिंग में देखी गई थी</translation>
    </message>
    <message>
        <source>learned table of {n:,} rows</source>
        <translation>{n:,} पंक्तियों की लर्न्ड टेबल</translation>
    </message>
    <message>
        <source>Learned absolute</source>
        <translation>लर्न्ड एब्सोल्यूट</translation>
    </message>
    <message>
        <source>all {n:,} positions have a row in the {rows:,}-row table</source>
        <translation>सभी {n:,} पोज़िशन्स की {rows:,}-पंक्ति वाली टेबल में पंक्ति है</translation>
    </message>
    <message>
        <source>1 position</source>
        <translation>1 पोज़िशन</translation>
    </message>
    <message>
        <source>{n:,} positions</source>
        <translation>{n:,} पोज़िशन्स</translation>
    </message>
    <message>
        <source>{missing} past the table — {error}</source>
        <translation>टेबल के आगे {missing} — {error}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>कोई नहीं</translation>
    </message>
    <message>
        <source>dims {lo}–{hi}</source>
        <translation>डायमेंशन्स {lo}–{hi}</translation>
    </message>
    <message>
        <source>pairs {lo}–{hi}</source>
        <translation>जोड़ियाँ {lo}–{hi}</translation>
    </message>
    <message>
        <source>Sinusoidal</source>
        <translation>साइनुसॉइडल</translation>
    </message>
    <message>
        <source>every position up to {n:,} was seen in training</source>
        <translation>{n:,} तक की हर पोज़िशन ट्रेनिंग में देखी गई थी</translation>
    </message>
    <message>
        <source>values continue past {n:,}, and every one of the {pairs} pairs already turned a full circle in training, so each pair&apos;s values were seen (their combinations are new)</source>
        <translation>मान {n:,} के आगे भी चलते हैं, और सभी {pairs} जोड़ियाँ ट्रेनिंग में पूरा चक्कर लगा चुकी थीं, इसलिए हर जोड़ी के मान देखे जा चुके हैं (उनके मेल नए हैं)</translation>
    </message>
    <message>
        <source>values continue past {n:,}, but {novel} of {pairs} pairs ({dims}, wavelengths {fastest:,.0f}–{slowest:,.0f} positions) meet phases never seen in training — inputs the model was not trained on</source>
        <translation>मान {n:,} के आगे भी चलते हैं, पर {pairs} में से {novel} जोड़ियाँ ({dims}, वेवलेंथ {fastest:,.0f}–{slowest:,.0f} पोज़िशन्स) ऐसे फ़ेज़ पर पहुँचती हैं जो ट्रेनिंग में कभी नहीं दिखे — ऐसे इनपुट जिन पर मॉडल ट्रेन नहीं हुआ</translation>
    </message>
    <message>
        <source>every angle up to position {n:,} was seen in training</source>
        <translation>पोज़िशन {n:,} तक का हर कोण ट्रेनिंग में देखा गया था</translation>
    </message>
    <message>
        <source>; no scaling needed</source>
        <translation>; स्केलिंग की ज़रूरत नहीं</translation>
    </message>
    <message>
        <source>{slowed} of {pairs} pairs slowed</source>
        <translation>{pairs} में से {slowed} जोड़ियाँ धीमी की गईं</translation>
    </message>
    <message>
        <source>every pair already turned a full circle within {n:,} positions</source>
        <translation>हर जोड़ी {n:,} पोज़िशन्स के भीतर पूरा चक्कर लगा चुकी थी</translation>
    </message>
    <message>
        <source>{changed}; not needed: {reason}</source>
        <translation>{changed}; ज़रूरत नहीं थी: {reason}</translation>
    </message>
    <message>
        <source>{changed}; every pair&apos;s angle at position {n:,} is within the span trained on (as if at position ≤ {effective:,.2f})</source>
        <translation>{changed}; पोज़िशन {n:,} पर हर जोड़ी का कोण ट्रेन किए गए दायरे के भीतर है (मानो पोज़िशन ≤ {effective:,.2f} पर हो)</translation>
    </message>
    <message>
        <source>{changed}, but </source>
        <translation>{changed}, पर </translation>
    </message>
    <message>
        <source>{out} of {pairs} pairs ({dims}) turn past any angle seen in training (slowest: needs {needed:.4g} rad, ×{ratio:.4g} the {trained:.4g} rad seen)</source>
        <translation>{pairs} में से {out} जोड़ियाँ ({dims}) ट्रेनिंग में देखे गए हर कोण से आगे घूमती हैं (सबसे धीमी: {needed:.4g} rad चाहिए, देखे गए {trained:.4g} rad का ×{ratio:.4g})</translation>
    </message>
    <message>
        <source>; cos/sin scaled by {factor:.4f}</source>
        <translation>; cos/sin को {factor:.4f} से स्केल किया गया</translation>
    </message>
    <message>
        <source>T5 relative buckets</source>
        <translation>T5 रिलेटिव बकेट</translation>
    </message>
    <message>
        <source>distances from {far:,} on share the last bucket ({last}), and training (distances up to {trained:,}) already reached it, so no bias is new; far tokens just stop being told apart</source>
        <translation>{far:,} से आगे की दूरियाँ आख़िरी बकेट ({last}) साझा करती हैं, और ट्रेनिंग ({trained:,} तक की दूरियाँ) उस तक पहुँच चुकी थी, इसलिए कोई बायस नया नहीं; दूर के टोकन्स बस अलग पहचाने जाना बंद हो जाते हैं</translation>
    </message>
    <message>
        <source>distances up to {n:,} still fall in bucket {bucket}, which training reached</source>
        <translation>{n:,} तक की दूरियाँ अब भी बकेट {bucket} में आती हैं, जिस तक ट्रेनिंग पहुँची थी</translation>
    </message>
    <message>
        <source>buckets {first}–{last} are first reached past the training length (distances ≥ {distance:,}): their biases were never trained</source>
        <translation>बकेट {first}–{last} तक पहली बार ट्रेनिंग लंबाई के आगे पहुँचा जाता है (दूरियाँ ≥ {distance:,}): उनके बायस कभी ट्रेन नहीं हुए</translation>
    </message>
    <message>
        <source>ALiBi</source>
        <translation>ALiBi</translation>
    </message>
    <message>
        <source>the bias −slope·distance is defined at every distance; {local} of {heads} heads fade below −{threshold:g} within {n:,} tokens (reach {shortest:,.0f}–{longest:,.0f}), so they behave the same at {eval:,}</source>
        <translation>बायस −स्लोप·दूरी हर दूरी पर परिभाषित है; {heads} में से {local} हेड्स {n:,} टोकन्स के भीतर −{threshold:g} से नीचे फीके पड़ जाते हैं (पहुँच {shortest:,.0f}–{longest:,.0f}), इसलिए {eval:,} पर भी वे वैसा ही बर्ताव करते हैं</translation>
    </message>
    <message>
        <source>distance {n:,}</source>
        <translation>दूरी {n:,}</translation>
    </message>
    <message>
        <source>distances {first:,}–{last:,}</source>
        <translation>दूरियाँ {first:,}–{last:,}</translation>
    </message>
    <message>
        <source>; 1 head (reach up to {reach:,.0f}) meets {far} with penalties larger than any seen in training</source>
        <translation>; 1 हेड ({reach:,.0f} तक की पहुँच) को {far} पर ट्रेनिंग में देखी गई किसी भी पेनल्टी से बड़ी पेनल्टी मिलती है</translation>
    </message>
    <message>
        <source>; {heads:,} heads (reach up to {reach:,.0f}) meet {far} with penalties larger than any seen in training</source>
        <translation>; {heads:,} हेड्स ({reach:,.0f} तक की पहुँच) को {far} पर ट्रेनिंग में देखी गई किसी भी पेनल्टी से बड़ी पेनल्टी मिलती है</translation>
    </message>
    <message>
        <source>unscaled</source>
        <translation>बिना स्केलिंग</translation>
    </message>
    <message>
        <source>dyn. NTK</source>
        <translation>डायनेमिक NTK</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>स्वतः</translation>
    </message>
    <message>
        <source>Scheme settings</source>
        <translation>स्कीम सेटिंग्स</translation>
    </message>
    <message>
        <source>Each scheme&apos;s own settings: RoPE base and head_dim, sinusoid width, T5 buckets, ALiBi</source>
        <translation>हर स्कीम की अपनी सेटिंग्स: RoPE बेस और head_dim, साइनुसॉइड की चौड़ाई, T5 बकेट, ALiBi</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;font-size:9pt&apos;&gt;The formulas, computed; &lt;span style=&apos;color:{guide}&apos;&gt;&lt;i&gt;and what measurements found (Press et al. 2022)&lt;/i&gt;&lt;/span&gt;&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;font-size:9pt&apos;&gt;सूत्रों की गणना; &lt;span style=&apos;color:{guide}&apos;&gt;&lt;i&gt;और मापों में क्या मिला (Press et al. 2022)&lt;/i&gt;&lt;/span&gt;&lt;/span&gt;</translation>
    </message>
    <message>
        <source>Reasons</source>
        <translation>कारण</translation>
    </message>
    <message>
        <source>Show why each verdict was reached, and the measurements in full</source>
        <translation>दिखाएँ कि हर निष्कर्ष क्यों निकला, और माप पूरे</translation>
    </message>
    <message>
        <source>Hover over a plot for its numbers.</source>
        <translation>संख्याओं के लिए किसी प्लॉट पर पॉइंटर रखें।</translation>
    </message>
    <message>
        <source> (the auto factor stops at {factor:g})</source>
        <translation> (ऑटो फ़ैक्टर {factor:g} पर रुकता है)</translation>
    </message>
    <message>
        <source>Trained on {train:,} tokens, asked to read {eval:,}; RoPE scalings with factor {factor:g}{capped}, original length {train:,}. The verdicts read the plots: rows that exist, phases and angles seen in training, T5 buckets reached (decoder), each ALiBi head&apos;s reach (a dot: its bias crosses the dotted −{threshold:g}). Dashed: the training length.</source>
        <translation>{train:,} टोकन्स पर ट्रेन किया गया, {eval:,} पढ़ने को कहा गया; RoPE स्केलिंग्स फ़ैक्टर {factor:g}{capped} के साथ, मूल लंबाई {train:,}। निष्कर्ष प्लॉट्स से पढ़े जाते हैं: मौजूद पंक्तियाँ, ट्रेनिंग में देखे गए फ़ेज़ और कोण, जिन T5 बकेट तक पहुँचा गया (डिकोडर), हर ALiBi हेड की पहुँच (बिंदु: उसका बायस डॉटेड −{threshold:g} को पार करता है)। डैश वाली रेखा: ट्रेनिंग लंबाई।</translation>
    </message>
    <message>
        <source>Learned: {verdict}</source>
        <translation>लर्न्ड: {verdict}</translation>
    </message>
    <message>
        <source>position</source>
        <translation>पोज़िशन</translation>
    </message>
    <message>
        <source>row exists</source>
        <translation>पंक्ति मौजूद</translation>
    </message>
    <message>
        <source>no rows
({n:,})</source>
        <translation>कोई पंक्ति नहीं
({n:,})</translation>
    </message>
    <message>
        <source>Sinusoidal: {verdict}</source>
        <translation>साइनुसॉइडल: {verdict}</translation>
    </message>
    <message>
        <source>sin/cos pair (fast → slow)</source>
        <translation>sin/cos जोड़ी (तेज़ → धीमी)</translation>
    </message>
    <message>
        <source>unseen-phase share</source>
        <translation>अनदेखे फ़ेज़ का हिस्सा</translation>
    </message>
    <message>
        <source>sin/cos pair (dashed: full turns ←)</source>
        <translation>sin/cos जोड़ी (डैश: पूरे चक्कर ←)</translation>
    </message>
    <message>
        <source>RoPE: angle needed ÷ largest seen, factor {factor:g}</source>
        <translation>RoPE: ज़रूरी कोण ÷ देखा गया सबसे बड़ा, फ़ैक्टर {factor:g}</translation>
    </message>
    <message>
        <source>pair i (fast → slow)</source>
        <translation>जोड़ी i (तेज़ → धीमी)</translation>
    </message>
    <message>
        <source>needed / seen</source>
        <translation>ज़रूरी / देखा गया</translation>
    </message>
    <message>
        <source>full turn seen in training</source>
        <translation>ट्रेनिंग में पूरा चक्कर देखा गया</translation>
    </message>
    <message>
        <source>{name}: {n} out</source>
        <translation>{name}: {n} बाहर</translation>
    </message>
    <message>
        <source>1 = largest angle seen</source>
        <translation>1 = देखा गया सबसे बड़ा कोण</translation>
    </message>
    <message>
        <source>ALiBi: {verdict}</source>
        <translation>ALiBi: {verdict}</translation>
    </message>
    <message>
        <source>distance i − j (log)</source>
        <translation>दूरी i − j (log)</translation>
    </message>
    <message>
        <source>bias per head</source>
        <translation>हर हेड का बायस</translation>
    </message>
    <message>
        <source>bias (dotted: −{threshold:g})</source>
        <translation>बायस (डॉटेड: −{threshold:g})</translation>
    </message>
    <message>
        <source>T5 buckets: {verdict}</source>
        <translation>T5 बकेट: {verdict}</translation>
    </message>
    <message>
        <source>bucket (causal)</source>
        <translation>बकेट (कॉज़ल)</translation>
    </message>
    <message>
        <source>position {pos:,}: row {pos:,} exists</source>
        <translation>पोज़िशन {pos:,}: पंक्ति {pos:,} मौजूद है</translation>
    </message>
    <message>
        <source>position {pos:,}: no row — the table ends at {last:,}</source>
        <translation>पोज़िशन {pos:,}: कोई पंक्ति नहीं — टेबल {last:,} पर ख़त्म होती है</translation>
    </message>
    <message>
        <source>pair {i}: wavelength {wavelength:,.1f} positions; largest angle in training {angle:.4g} rad</source>
        <translation>जोड़ी {i}: वेवलेंथ {wavelength:,.1f} पोज़िशन्स; ट्रेनिंग में सबसे बड़ा कोण {angle:.4g} rad</translation>
    </message>
    <message>
        <source> (wrapped)</source>
        <translation> (पूरा चक्कर)</translation>
    </message>
    <message>
        <source>; {share:.0%} of new positions meet an unseen phase</source>
        <translation>; {share:.0%} नई पोज़िशन्स अनदेखे फ़ेज़ पर पहुँचती हैं</translation>
    </message>
    <message>
        <source> (out)</source>
        <translation> (बाहर)</translation>
    </message>
    <message>
        <source>; needed at {n:,}: {needed}</source>
        <translation>; {n:,} पर ज़रूरी: {needed}</translation>
    </message>
    <message>
        <source>trained</source>
        <translation>ट्रेन हुआ</translation>
    </message>
    <message>
        <source>never trained (first reached past the training length)</source>
        <translation>कभी ट्रेन नहीं हुआ (पहली बार ट्रेनिंग लंबाई के आगे पहुँचा गया)</translation>
    </message>
    <message>
        <source>distance {d:,}: bucket {b} of {n} — {seen}</source>
        <translation>दूरी {d:,}: {n} में से बकेट {b} — {seen}</translation>
    </message>
    <message>
        <source>distance {d:,.0f}: bias per head {biases}{more}; reach per head {reach}{more}</source>
        <translation>दूरी {d:,.0f}: हर हेड का बायस {biases}{more}; हर हेड की पहुँच {reach}{more}</translation>
    </message>
    <message>
        <source>Length extrapolation: trained on {train:,}, evaluated at {eval:,}</source>
        <translation>लंबाई एक्सट्रैपोलेशन: {train:,} पर ट्रेन, {eval:,} पर मूल्यांकन</translation>
    </message>
</context>
<context>
    <name>Heatmap</name>
    <message>
        <source>Hover over the heatmap for values; click to select a position and a dimension.</source>
        <translation>मान देखने के लिए हीटमैप पर पॉइंटर रखें; कोई पोज़िशन और डायमेंशन चुनने के लिए क्लिक करें।</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>ज़ूम रीसेट करें</translation>
    </message>
    <message>
        <source>Show the whole table again (double-click the plot does the same)</source>
        <translation>पूरी टेबल फिर से दिखाएँ (प्लॉट पर डबल-क्लिक भी यही करता है)</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>दिखाएँ</translation>
    </message>
    <message>
        <source>Switch the heatmap between the encoding table and position similarity</source>
        <translation>हीटमैप को एनकोडिंग टेबल और पोज़िशन समानता के बीच बदलें</translation>
    </message>
    <message>
        <source> Drawn as a level-of-detail view ({how}){aliasing}; zoom in for full resolution.</source>
        <translation> लेवल-ऑफ़-डिटेल दृश्य के रूप में बनाया गया ({how}){aliasing}; पूरे रिज़ॉल्यूशन के लिए ज़ूम करें।</translation>
    </message>
    <message>
        <source> Colours span {low:.3g} … {high:.3g}, where {share:.1%} of the values lie; the rest (down to {lowest:.3g}, up to {highest:.3g}) take the end colours — hover for exact values.</source>
        <translation> रंग {low:.3g} … {high:.3g} तक फैले हैं, जहाँ {share:.1%} मान आते हैं; बाकी ({lowest:.3g} तक नीचे, {highest:.3g} तक ऊपर) छोर के रंग लेते हैं — सटीक मानों के लिए पॉइंटर रखें।</translation>
    </message>
    <message>
        <source> Sampled: {how}.</source>
        <translation> सैंपल किया गया: {how}।</translation>
    </message>
    <message>
        <source>{similarity} of every position&apos;s encoding with every other: bright diagonal = a position matches itself; how fast it fades shows how well nearby positions are told apart.{sampled}</source>
        <translation>हर पोज़िशन की एनकोडिंग की बाकी हर पोज़िशन से {similarity}: चमकीला विकर्ण = पोज़िशन ख़ुद से मेल खाती है; यह कितनी जल्दी फीका पड़ता है, उससे पता चलता है कि पास की पोज़िशन्स कितनी अच्छी तरह अलग पहचानी जाती हैं।{sampled}</translation>
    </message>
    <message>
        <source>; {fast:,} of {total:,} {columns} turn in under two strides ({span:,.0f} positions), so their stripes here are aliased, not their own</source>
        <translation>; {total:,} में से {fast:,} {columns} दो स्ट्राइड ({span:,.0f} पोज़िशन्स) से कम में घूम जाते हैं, इसलिए यहाँ उनकी धारियाँ एलियास्ड हैं, उनकी अपनी नहीं</translation>
    </message>
    <message>
        <source>{column} across {rows} (exact)</source>
        <translation>सभी {rows} पर {column} (सटीक)</translation>
    </message>
    <message>
        <source>column {n:,}</source>
        <translation>कॉलम {n:,}</translation>
    </message>
    <message>
        <source> · y clipped as the colours</source>
        <translation> · y रंगों की तरह क्लिप किया गया</translation>
    </message>
    <message>
        <source>every {nth} position</source>
        <translation>हर {nth} पोज़िशन</translation>
    </message>
    <message>
        <source>means of ~{n:,.0f} positions</source>
        <translation>~{n:,.0f} पोज़िशन्स के औसत</translation>
    </message>
    <message>
        <source>{column} across {rows} ({how})</source>
        <translation>सभी {rows} पर {column} ({how})</translation>
    </message>
    <message>
        <source>position {n:,}</source>
        <translation>पोज़िशन {n:,}</translation>
    </message>
    <message>
        <source>positions {a:,} and {b:,} (distance {distance:,}): {what} {value:+.4f}</source>
        <translation>पोज़िशन्स {a:,} और {b:,} (दूरी {distance:,}): {what} {value:+.4f}</translation>
    </message>
    <message>
        <source> (exact; drawn: {how})</source>
        <translation> (सटीक; बनाया गया: {how})</translation>
    </message>
    <message>
        <source> (mean over ~{n:,.0f} positions)</source>
        <translation> (~{n:,.0f} पोज़िशन्स का औसत)</translation>
    </message>
    <message>
        <source> (mean over ~{rows:,.0f} × {cols:,.0f} cells)</source>
        <translation> (~{rows:,.0f} × {cols:,.0f} सेल्स का औसत)</translation>
    </message>
    <message>
        <source>{axis} {n:,}, {column}: {what} {value:+.4f}{pooled}</source>
        <translation>{axis} {n:,}, {column}: {what} {value:+.4f}{pooled}</translation>
    </message>
    <message>
        <source> — wavelength {n:,.1f} positions</source>
        <translation> — वेवलेंथ {n:,.1f} पोज़िशन्स</translation>
    </message>
    <message>
        <source>{column} across {rows}</source>
        <translation>सभी {rows} पर {column}</translation>
    </message>
    <message>
        <source>similarity of position {n:,} to every position</source>
        <translation>पोज़िशन {n:,} की हर पोज़िशन से समानता</translation>
    </message>
    <message>
        <source>mean similarity by distance (positions)</source>
        <translation>दूरी के अनुसार औसत समानता (पोज़िशन्स)</translation>
    </message>
    <message>
        <source>similarity</source>
        <translation>समानता</translation>
    </message>
    <message>
        <source>table</source>
        <translation>टेबल</translation>
    </message>
</context>
<context>
    <name>HeatmapView</name>
    <message>
        <source>mean of {n:,.1f} positions per row</source>
        <translation>हर पंक्ति में {n:,.1f} पोज़िशन्स का औसत</translation>
    </message>
    <message>
        <source>mean of {rows:,.1f} × {cols:,.1f} cells per drawn cell</source>
        <translation>हर बनाए गए सेल में {rows:,.1f} × {cols:,.1f} सेल्स का औसत</translation>
    </message>
    <message>
        <source>mean of {samples} samples per {n:,.1f} positions</source>
        <translation>हर {n:,.1f} पोज़िशन्स पर {samples} सैंपल्स का औसत</translation>
    </message>
    <message>
        <source>every {nth} position</source>
        <translation>हर {nth} पोज़िशन</translation>
    </message>
    <message>
        <source>every {nth} column</source>
        <translation>हर {nth} कॉलम</translation>
    </message>
    <message>
        <source>{strides}, exact values at those</source>
        <translation>{strides}, उन पर सटीक मान</translation>
    </message>
    <message>
        <source>{n:,}st</source>
        <translation>{n:,}वीं</translation>
    </message>
    <message>
        <source>{n:,}nd</source>
        <translation>{n:,}वीं</translation>
    </message>
    <message>
        <source>{n:,}rd</source>
        <translation>{n:,}वीं</translation>
    </message>
    <message>
        <source>{n:,}th</source>
        <translation>{n:,}वीं</translation>
    </message>
    <message>
        <source>{n:,.1f}th</source>
        <translation>{n:,.1f}वीं</translation>
    </message>
    <message>
        <source>every {n:,.1f}th position</source>
        <translation>हर {n:,.1f}वीं पोज़िशन</translation>
    </message>
    <message>
        <source>dot similarity</source>
        <translation>डॉट प्रोडक्ट समानता</translation>
    </message>
    <message>
        <source>cosine similarity</source>
        <translation>कोसाइन समानता</translation>
    </message>
</context>
<context>
    <name>Multimodal</name>
    <message>
        <source>Qwen2-VL (sectioned)</source>
        <translation>Qwen2-VL (खंडों में)</translation>
    </message>
    <message>
        <source>Qwen2.5-VL (sectioned, seconds)</source>
        <translation>Qwen2.5-VL (खंडों में, सेकंड)</translation>
    </message>
    <message>
        <source>Qwen3-VL (interleaved)</source>
        <translation>Qwen3-VL (इंटरलीव्ड)</translation>
    </message>
    <message>
        <source>GLM-4V (sectioned, partial)</source>
        <translation>GLM-4V (खंडों में, आंशिक)</translation>
    </message>
    <message>
        <source>open checkpoint, else the style</source>
        <translation>खुला चेकपॉइंट, नहीं तो स्टाइल</translation>
    </message>
    <message>
        <source>the style&apos;s preset</source>
        <translation>स्टाइल का प्रीसेट</translation>
    </message>
    <message>
        <source>1D RoPE</source>
        <extracomment>the rows of the pair chart besides the design&apos;s: (key, label)</extracomment>
        <translation>1D RoPE</translation>
    </message>
    <message>
        <source>sectioned (Qwen2/2.5-VL)</source>
        <translation>खंडों में (Qwen2/2.5-VL)</translation>
    </message>
    <message>
        <source>interleaved (Qwen3-VL)</source>
        <translation>इंटरलीव्ड (Qwen3-VL)</translation>
    </message>
    <message>
        <source>text ({n})</source>
        <translation>टेक्स्ट ({n})</translation>
    </message>
    <message>
        <source>image {h}×{w}</source>
        <translation>इमेज {h}×{w}</translation>
    </message>
    <message>
        <source>video {f}×{h}×{w}, {s:g} s apart</source>
        <translation>वीडियो {f}×{h}×{w}, {s:g} सेकंड के अंतर पर</translation>
    </message>
    <message>
        <source>{style} preset</source>
        <translation>{style} प्रीसेट</translation>
    </message>
    <message>
        <source>The open checkpoint is not used ({reason}); showing the {style} preset.</source>
        <translation>खुला चेकपॉइंट इस्तेमाल नहीं हुआ ({reason}); {style} प्रीसेट दिखाया जा रहा है।</translation>
    </message>
    <message>
        <source>{kind}: ids laid out as {style}</source>
        <translation>{kind}: ids {style} की तरह रखे गए</translation>
    </message>
    <message>
        <source>1D RoPE on the flattened order</source>
        <translation>सपाट क्रम पर 1D RoPE</translation>
    </message>
    <message>
        <source>sectioned M-RoPE</source>
        <translation>खंडों वाला M-RoPE</translation>
    </message>
    <message>
        <source>interleaved M-RoPE</source>
        <translation>इंटरलीव्ड M-RoPE</translation>
    </message>
    <message>
        <source>VideoRoPE</source>
        <translation>VideoRoPE</translation>
    </message>
    <message>
        <source>HoPE</source>
        <translation>HoPE</translation>
    </message>
    <message>
        <source>V2PE</source>
        <translation>V2PE</translation>
    </message>
    <message>
        <source>The sequence has no image or video: every token&apos;s t, h and w are equal (1D RoPE).</source>
        <translation>सीक्वेंस में कोई इमेज या वीडियो नहीं है: हर टोकन के t, h और w बराबर हैं (1D RoPE)।</translation>
    </message>
    <message>
        <source>image</source>
        <translation>इमेज</translation>
    </message>
    <message>
        <source>f{frame}</source>
        <translation>f{frame}</translation>
    </message>
    <message>
        <source>the model&apos;s M-RoPE</source>
        <extracomment>frame-split models: each video frame is its own grid, separated by timestamp text</extracomment>
        <translation>मॉडल का M-RoPE</translation>
    </message>
    <message>
        <source>VideoRoPE (Wei et al. 2025, from the paper)</source>
        <translation>VideoRoPE (Wei et al. 2025, पेपर से)</translation>
    </message>
    <message>
        <source>HoPE (Li et al. 2025, from the paper)</source>
        <translation>HoPE (Li et al. 2025, पेपर से)</translation>
    </message>
    <message>
        <source>V2PE (Ge et al. 2024, from the paper)</source>
        <translation>V2PE (Ge et al. 2024, पेपर से)</translation>
    </message>
    <message>
        <source>t (time)</source>
        <translation>t (समय)</translation>
    </message>
    <message>
        <source>h (rows)</source>
        <translation>h (पंक्तियाँ)</translation>
    </message>
    <message>
        <source>w (columns)</source>
        <translation>w (कॉलम)</translation>
    </message>
    <message>
        <source>1D position</source>
        <translation>1D पोज़िशन</translation>
    </message>
    <message>
        <source>t, unrotated (θ = 0)</source>
        <translation>t, बिना घुमाव (θ = 0)</translation>
    </message>
    <message>
        <source>Hover over the ids, the pairs or a map for values; click a token or a patch to make it the query.</source>
        <translation>मान देखने के लिए ids, जोड़ों या किसी मैप पर पॉइंटर रखें; किसी टोकन या पैच को क्वेरी बनाने के लिए उस पर क्लिक करें।</translation>
    </message>
    <message>
        <source>token</source>
        <translation>टोकन</translation>
    </message>
    <message>
        <source>position id</source>
        <translation>पोज़िशन id</translation>
    </message>
    <message>
        <source>rotary pair i (fast → slow)</source>
        <translation>रोटरी जोड़ा i (तेज़ → धीमा)</translation>
    </message>
    <message>
        <source>score</source>
        <translation>स्कोर</translation>
    </message>
    <message>
        <source>video {f}×{h}×{w}</source>
        <translation>वीडियो {f}×{h}×{w}</translation>
    </message>
    <message>
        <source>token index</source>
        <translation>टोकन इंडेक्स</translation>
    </message>
    <message>
        <source>Position ids — {design}</source>
        <translation>पोज़िशन ids — {design}</translation>
    </message>
    <message>
        <source>Which rotary pair carries which axis (sections t {t} · h {h} · w {w}; ★ the model&apos;s)</source>
        <translation>कौन-सा रोटरी जोड़ा कौन-सा अक्ष ले जाता है (खंड t {t} · h {h} · w {w}; ★ मॉडल का)</translation>
    </message>
    <message>
        <source>interleaved (Qwen3-VL: t, h, w take turns over the pairs)</source>
        <translation>इंटरलीव्ड (Qwen3-VL: t, h, w जोड़ों पर बारी-बारी से)</translation>
    </message>
    <message>
        <source>sectioned (time on the highest frequencies)</source>
        <translation>खंडों में (समय सबसे ऊँची फ़्रीक्वेंसीज़ पर)</translation>
    </message>
    <message>
        <source>{source}: {model}, head_dim {head} ({pairs} rotary pairs, base {base:g}), M-RoPE sections t {t} · h {h} · w {w}, {layout}. {n} tokens use ids 0 … {top} (delta {delta:+d}): a visual block advances the text by max(h, w), not by its tokens.</source>
        <translation>{source}: {model}, head_dim {head} ({pairs} रोटरी जोड़े, बेस {base:g}), M-RoPE खंड t {t} · h {h} · w {w}, {layout}। {n} टोकन्स ids 0 … {top} इस्तेमाल करते हैं (delta {delta:+d}): एक विज़ुअल ब्लॉक टेक्स्ट को अपने टोकन्स जितना नहीं, max(h, w) जितना आगे बढ़ाता है।</translation>
    </message>
    <message>
        <source> ⚠ {k} text token(s) after a video get ids at or below its largest t id (transformers 5.24 continues from start + max(h, w)).</source>
        <translation> ⚠ वीडियो के बाद {k} टेक्स्ट टोकन्स को उसके सबसे बड़े t id के बराबर या उससे छोटे ids मिलते हैं (transformers 5.24 start + max(h, w) से आगे गिनता है)।</translation>
    </message>
    <message>
        <source>Drawn from the paper&apos;s formulas, not a library: {design}.</source>
        <translation>किसी लाइब्रेरी से नहीं, पेपर के सूत्रों से बनाया गया: {design}।</translation>
    </message>
    <message>
        <source>, frame {f}, row {r}, column {c}</source>
        <translation>, फ़्रेम {f}, पंक्ति {r}, कॉलम {c}</translation>
    </message>
    <message>
        <source>token {k} · block {b}: {block}{where} · (t, h, w) = {ids}</source>
        <translation>टोकन {k} · ब्लॉक {b}: {block}{where} · (t, h, w) = {ids}</translation>
    </message>
    <message>
        <source> (the model&apos;s: {ids})</source>
        <translation> (मॉडल के: {ids})</translation>
    </message>
    <message>
        <source> · score from query {q} in {layout}: {s:.4f}</source>
        <translation> · {layout} में क्वेरी {q} से स्कोर: {s:.4f}</translation>
    </message>
    <message>
        <source>pair {i}: wavelength {wave:,.1f} positions · {axes}</source>
        <translation>जोड़ा {i}: वेवलेंथ {wave:,.1f} पोज़िशन्स · {axes}</translation>
    </message>
    <message>
        <source>Multimodal positions — {source}, {design}</source>
        <translation>मल्टीमोडल पोज़िशन्स — {source}, {design}</translation>
    </message>
</context>
<context>
    <name>Panels</name>
    <message>
        <source>Worked example</source>
        <translation>हल किया हुआ उदाहरण</translation>
    </message>
    <message>
        <source>Example</source>
        <translation>उदाहरण</translation>
    </message>
    <message>
        <source>Length extrapolation</source>
        <translation>लंबाई एक्सट्रैपोलेशन</translation>
    </message>
    <message>
        <source>Extrapolation</source>
        <translation>एक्सट्रैपोलेशन</translation>
    </message>
    <message>
        <source>Encoding heatmap</source>
        <translation>एनकोडिंग हीटमैप</translation>
    </message>
    <message>
        <source>Heatmap</source>
        <translation>हीटमैप</translation>
    </message>
    <message>
        <source>Vision patch grid</source>
        <translation>विज़न पैच ग्रिड</translation>
    </message>
    <message>
        <source>Patch grid</source>
        <translation>पैच ग्रिड</translation>
    </message>
    <message>
        <source>RoPE rotations</source>
        <translation>RoPE रोटेशन</translation>
    </message>
    <message>
        <source>Rotations</source>
        <translation>रोटेशन</translation>
    </message>
    <message>
        <source>RoPE spectrum</source>
        <extracomment>the RoPE parameters the spectrum panel shows as controls</extracomment>
        <translation>RoPE स्पेक्ट्रम</translation>
    </message>
    <message>
        <source>Spectrum</source>
        <translation>स्पेक्ट्रम</translation>
    </message>
    <message>
        <source>Time series</source>
        <translation>टाइम सीरीज़</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>पैरामीटर</translation>
    </message>
    <message>
        <source>Multimodal positions (M-RoPE)</source>
        <translation>मल्टीमोडल पोज़िशन्स (M-RoPE)</translation>
    </message>
    <message>
        <source>M-RoPE</source>
        <translation>M-RoPE</translation>
    </message>
</context>
<context>
    <name>Parameters</name>
    <message>
        <source>Encoding family shown by the heatmap (Ctrl+Up/Down to switch)</source>
        <translation>हीटमैप में दिखाया गया एनकोडिंग परिवार (बदलने के लिए Ctrl+ऊपर/नीचे)</translation>
    </message>
    <message>
        <source>Every value is checked before it is used; Ctrl+Z undoes an edit.</source>
        <translation>हर मान उपयोग से पहले जाँचा जाता है; Ctrl+Z बदलाव को पलट देता है।</translation>
    </message>
    <message>
        <source>Show the next encoding family (Parameters panel)</source>
        <translation>अगला एनकोडिंग परिवार दिखाएँ (पैरामीटर पैनल)</translation>
    </message>
    <message>
        <source>Show the previous encoding family (Parameters panel)</source>
        <translation>पिछला एनकोडिंग परिवार दिखाएँ (पैरामीटर पैनल)</translation>
    </message>
    <message>
        <source>{value} was refused</source>
        <translation>{value} अस्वीकार किया गया</translation>
    </message>
</context>
<context>
    <name>Params</name>
    <message>
        <source>Sequence length</source>
        <translation>सीक्वेंस लंबाई</translation>
    </message>
    <message>
        <source>Queries and keys shown (rows × columns).</source>
        <translation>दिखाई गई क्वेरीज़ और कीज़ (पंक्तियाँ × कॉलम)।</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>हेड्स</translation>
    </message>
    <message>
        <source>Number of heads; slopes are geometric (2^(−8/n) for powers of two).</source>
        <translation>हेड्स की संख्या; स्लोप ज्यामितीय होते हैं (दो की घातों के लिए 2^(−8/n))।</translation>
    </message>
    <message>
        <source>Head shown</source>
        <translation>दिखाया गया हेड</translation>
    </message>
    <message>
        <source>Which head&apos;s bias matrix the heatmap shows (0 = steepest slope).</source>
        <translation>हीटमैप किस हेड की बायस मैट्रिक्स दिखाए (0 = सबसे तीखा स्लोप)।</translation>
    </message>
    <message>
        <source>Causal</source>
        <translation>कॉज़ल</translation>
    </message>
    <message>
        <source>Mask future keys (decoder); off: −slope·|i−j| both ways.</source>
        <translation>भविष्य की कीज़ मास्क करें (डिकोडर); बंद: दोनों ओर −स्लोप·|i−j|।</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>पोज़िशन्स</translation>
    </message>
    <message>
        <source>How many positions (rows) to show; must not exceed the table.</source>
        <translation>कितनी पोज़िशन्स (पंक्तियाँ) दिखानी हैं; टेबल से अधिक नहीं हो सकतीं।</translation>
    </message>
    <message>
        <source>Table rows</source>
        <translation>टेबल की पंक्तियाँ</translation>
    </message>
    <message>
        <source>Rows in the learned table: the longest input the model can read.</source>
        <translation>लर्न्ड टेबल की पंक्तियाँ: मॉडल जितना लंबा इनपुट पढ़ सकता है।</translation>
    </message>
    <message>
        <source>Embedding width.</source>
        <translation>एम्बेडिंग की चौड़ाई।</translation>
    </message>
    <message>
        <source>Image height</source>
        <translation>चित्र की ऊँचाई</translation>
    </message>
    <message>
        <source>Input height in pixels.</source>
        <translation>इनपुट की ऊँचाई पिक्सेल में।</translation>
    </message>
    <message>
        <source>Image width</source>
        <translation>चित्र की चौड़ाई</translation>
    </message>
    <message>
        <source>Input width in pixels.</source>
        <translation>इनपुट की चौड़ाई पिक्सेल में।</translation>
    </message>
    <message>
        <source>Patch height</source>
        <translation>पैच की ऊँचाई</translation>
    </message>
    <message>
        <source>Patch height in pixels.</source>
        <translation>पैच की ऊँचाई पिक्सेल में।</translation>
    </message>
    <message>
        <source>Patch width</source>
        <translation>पैच की चौड़ाई</translation>
    </message>
    <message>
        <source>Patch width in pixels.</source>
        <translation>पैच की चौड़ाई पिक्सेल में।</translation>
    </message>
    <message>
        <source>Prefix tokens</source>
        <translation>प्रीफ़िक्स टोकन्स</translation>
    </message>
    <message>
        <source>CLS / distillation / register tokens before the patches; kept out of the grid.</source>
        <translation>पैचों से पहले के CLS / डिस्टिलेशन / रजिस्टर टोकन्स; ग्रिड से बाहर रखे जाते हैं।</translation>
    </message>
    <message>
        <source>Encoding of panel A.</source>
        <translation>पैनल A की एनकोडिंग।</translation>
    </message>
    <message>
        <source>Panel B</source>
        <translation>पैनल B</translation>
    </message>
    <message>
        <source>Second panel: another encoding to compare, A resampled to another grid, or none.</source>
        <translation>दूसरा पैनल: तुलना के लिए दूसरी एनकोडिंग, दूसरे ग्रिड पर रीसैंपल किया गया A, या कुछ नहीं।</translation>
    </message>
    <message>
        <source>Resample to rows</source>
        <translation>रीसैंपल के बाद पंक्तियाँ</translation>
    </message>
    <message>
        <source>Grid rows after resampling (panel B = resampled).</source>
        <translation>रीसैंपलिंग के बाद ग्रिड की पंक्तियाँ (पैनल B = रीसैंपल किया गया)।</translation>
    </message>
    <message>
        <source>Resample to columns</source>
        <translation>रीसैंपल के बाद कॉलम</translation>
    </message>
    <message>
        <source>Grid columns after resampling.</source>
        <translation>रीसैंपलिंग के बाद ग्रिड के कॉलम।</translation>
    </message>
    <message>
        <source>dim</source>
        <translation>डायमेंशन</translation>
    </message>
    <message>
        <source>Embedding width (head_dim for RoPE); 2D sin-cos and RoPE need a multiple of 4.</source>
        <translation>एम्बेडिंग की चौड़ाई (RoPE के लिए head_dim); 2D sin-cos और RoPE को 4 का गुणज चाहिए।</translation>
    </message>
    <message>
        <source>Frequency base of the sinusoids and RoPE (MAE: 10000).</source>
        <translation>साइनुसॉइड्स और RoPE का फ़्रीक्वेंसी बेस (MAE: 10000)।</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>सीड</translation>
    </message>
    <message>
        <source>Seed of the random learned table (and of a random RoPE vector).</source>
        <translation>रैंडम लर्न्ड टेबल का सीड (और रैंडम RoPE वेक्टर का भी)।</translation>
    </message>
    <message>
        <source>RoPE vector</source>
        <translation>RoPE वेक्टर</translation>
    </message>
    <message>
        <source>The fixed q = k vector whose rotated dot products RoPE&apos;s map shows.</source>
        <translation>वह तय q = k वेक्टर जिसके घुमाए हुए डॉट प्रोडक्ट RoPE का मैप दिखाता है।</translation>
    </message>
    <message>
        <source>Colour range</source>
        <translation>रंगों का दायरा</translation>
    </message>
    <message>
        <source>data: the colour bar spans the values shown; full: the whole −1 … 1 cosine range.</source>
        <translation>डेटा: कलर बार दिखाए गए मानों तक फैलता है; पूरा: कोसाइन का पूरा −1 … 1 दायरा।</translation>
    </message>
    <message>
        <source>Selected patch</source>
        <translation>चुना गया पैच</translation>
    </message>
    <message>
        <source>Row-major index of the selected patch.</source>
        <translation>चुने गए पैच का पंक्ति-क्रम इंडेक्स।</translation>
    </message>
    <message>
        <source>Learned table</source>
        <translation>लर्न्ड टेबल</translation>
    </message>
    <message>
        <source>PATH::TENSOR of a checkpoint&apos;s ViT position table [1, P + H·W, d] or [P + H·W, d] (P = Prefix tokens), shown when a panel&apos;s encoding is &apos;table&apos;.</source>
        <translation>किसी चेकपॉइंट की ViT पोज़िशन टेबल [1, P + H·W, d] या [P + H·W, d] का PATH::TENSOR (P = प्रीफ़िक्स टोकन्स), तब दिखाई जाती है जब किसी पैनल की एनकोडिंग ‘लर्न्ड टेबल (दी गई)’ हो।</translation>
    </message>
    <message>
        <source>Bias table</source>
        <translation>बायस टेबल</translation>
    </message>
    <message>
        <source>PATH::TENSOR of a checkpoint&apos;s 2-D relative_position_bias_table (BEiT, Swin) [(2H−1)(2W−1) (+3), heads], shown when a panel&apos;s encoding is &apos;relative_bias&apos;; the grid is its window.</source>
        <translation>किसी चेकपॉइंट की 2-D relative_position_bias_table (BEiT, Swin) [(2H−1)(2W−1) (+3), हेड्स] का PATH::TENSOR, तब दिखाई जाती है जब किसी पैनल की एनकोडिंग ‘रिलेटिव बायस टेबल (दी गई)’ हो; ग्रिड उसकी विंडो है।</translation>
    </message>
    <message>
        <source>Bias head</source>
        <translation>बायस हेड</translation>
    </message>
    <message>
        <source>Head of the relative position bias table shown.</source>
        <translation>दिखाई गई रिलेटिव पोज़िशन बायस टेबल का हेड।</translation>
    </message>
    <message>
        <source>Seed of the random initialisation (std 0.02, as GPT-2/BERT).</source>
        <translation>रैंडम इनिशियलाइज़ेशन का सीड (मानक विचलन 0.02, GPT-2/BERT की तरह)।</translation>
    </message>
    <message>
        <source>Checkpoint table</source>
        <translation>चेकपॉइंट टेबल</translation>
    </message>
    <message>
        <source>Empty: a random initialisation. Otherwise PATH::TENSOR of a checkpoint&apos;s table; choose one in the Checkpoint panel.</source>
        <translation>खाली: रैंडम इनिशियलाइज़ेशन। नहीं तो किसी चेकपॉइंट की टेबल का PATH::TENSOR; उसे चेकपॉइंट पैनल में चुनें।</translation>
    </message>
    <message>
        <source>Row offset</source>
        <translation>पंक्ति ऑफ़सेट</translation>
    </message>
    <message>
        <source>Table rows before position 0: 2 for RoBERTa (padding_idx + 1) and OPT/BART; the prefix tokens (CLS …) of a vision table.</source>
        <translation>पोज़िशन 0 से पहले की टेबल पंक्तियाँ: RoBERTa (padding_idx + 1) और OPT/BART के लिए 2; विज़न टेबल के लिए प्रीफ़िक्स टोकन्स (CLS …)।</translation>
    </message>
    <message>
        <source>Positions shown.</source>
        <translation>दिखाई गई पोज़िशन्स।</translation>
    </message>
    <message>
        <source>Buckets</source>
        <translation>बकेट</translation>
    </message>
    <message>
        <source>relative_attention_num_buckets (32 in T5).</source>
        <translation>relative_attention_num_buckets (T5 में 32)।</translation>
    </message>
    <message>
        <source>Max distance</source>
        <translation>अधिकतम दूरी</translation>
    </message>
    <message>
        <source>relative_attention_max_distance: beyond it, the last bucket (128 in T5).</source>
        <translation>relative_attention_max_distance: इसके आगे, आख़िरी बकेट (T5 में 128)।</translation>
    </message>
    <message>
        <source>Bidirectional</source>
        <translation>द्विदिश</translation>
    </message>
    <message>
        <source>Encoder (both directions) vs decoder (causal).</source>
        <translation>एनकोडर (दोनों दिशाएँ) बनाम डिकोडर (कॉज़ल)।</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>दिखाएँ</translation>
    </message>
    <message>
        <source>bucket</source>
        <translation>बकेट</translation>
    </message>
    <message>
        <source>bias</source>
        <translation>बायस</translation>
    </message>
    <message>
        <source>bucket: the bucket index; bias: one head of a seeded random bucket table.</source>
        <translation>बकेट: बकेट इंडेक्स; बायस: सीड वाली रैंडम बकेट टेबल का एक हेड।</translation>
    </message>
    <message>
        <source>Heads of the bias table.</source>
        <translation>बायस टेबल के हेड्स।</translation>
    </message>
    <message>
        <source>Which head&apos;s bias to show.</source>
        <translation>किस हेड का बायस दिखाना है।</translation>
    </message>
    <message>
        <source>Seed of the random bias table.</source>
        <translation>रैंडम बायस टेबल का सीड।</translation>
    </message>
    <message>
        <source>Clip distance k</source>
        <translation>क्लिप दूरी k</translation>
    </message>
    <message>
        <source>Distances beyond ±k share one learned vector (Shaw et al. use small k).</source>
        <translation>±k से आगे की दूरियाँ एक ही लर्न्ड वेक्टर साझा करती हैं (Shaw et al. छोटा k लेते हैं)।</translation>
    </message>
    <message>
        <source>default</source>
        <translation>डिफ़ॉल्ट</translation>
    </message>
    <message>
        <source>linear</source>
        <translation>लीनियर (PI)</translation>
    </message>
    <message>
        <source>ntk</source>
        <translation>NTK</translation>
    </message>
    <message>
        <source>dynamic</source>
        <translation>डायनेमिक NTK</translation>
    </message>
    <message>
        <source>yarn</source>
        <translation>YaRN</translation>
    </message>
    <message>
        <source>llama3</source>
        <translation>Llama-3</translation>
    </message>
    <message>
        <source>longrope</source>
        <translation>LongRoPE</translation>
    </message>
    <message>
        <source>How many positions (rows) of the cos/sin tables to show. For dynamic and LongRoPE scaling this is also the sequence length the frequencies are chosen for.</source>
        <translation>cos/sin टेबल्स की कितनी पोज़िशन्स (पंक्तियाँ) दिखानी हैं। डायनेमिक और LongRoPE स्केलिंग में यही वह सीक्वेंस लंबाई भी है जिसके लिए फ़्रीक्वेंसीज़ चुनी जाती हैं।</translation>
    </message>
    <message>
        <source>Per-head width of q and k.</source>
        <translation>हर हेड में q और k की चौड़ाई।</translation>
    </message>
    <message>
        <source>Base (rope_theta)</source>
        <translation>बेस (rope_theta)</translation>
    </message>
    <message>
        <source>θ_i = base^(−2i/dim); Llama-3 uses 500000.</source>
        <translation>θ_i = बेस^(−2i/dim); Llama-3 में 500000।</translation>
    </message>
    <message>
        <source>Rotary fraction</source>
        <translation>रोटरी हिस्सा</translation>
    </message>
    <message>
        <source>Share of head_dim that rotates (GPT-NeoX rotary_pct).</source>
        <translation>head_dim का वह हिस्सा जो घूमता है (GPT-NeoX rotary_pct)।</translation>
    </message>
    <message>
        <source>Pair layout</source>
        <translation>जोड़ियों का लेआउट</translation>
    </message>
    <message>
        <source>half</source>
        <translation>आधा-आधा</translation>
    </message>
    <message>
        <source>interleaved</source>
        <extracomment>The article&apos;s worked example: the word, its 4-dimensional embedding, and its position. The article then moves the same word to position 5. the pair layouts&apos; names in captions (the forms&apos; words for them)</extracomment>
        <translation>इंटरलीव्ड</translation>
    </message>
    <message>
        <source>half: i pairs with i+dim/2 (HF Llama); interleaved: 2i with 2i+1 (GPT-J).</source>
        <translation>आधा-आधा: i की जोड़ी i+dim/2 से (HF Llama); इंटरलीव्ड: 2i की 2i+1 से (GPT-J)।</translation>
    </message>
    <message>
        <source>Scaling (rope_type)</source>
        <translation>स्केलिंग (rope_type)</translation>
    </message>
    <message>
        <source>default: none; linear: position interpolation; ntk: static NTK-aware base; dynamic: NTK base grown with the sequence length; yarn: ramp + attention factor; llama3: keep/blend/divide bands; longrope: per-pair factors.</source>
        <translation>डिफ़ॉल्ट: कोई नहीं; लीनियर: पोज़िशन इंटरपोलेशन (PI); NTK: स्थिर NTK-आधारित बेस; डायनेमिक: सीक्वेंस लंबाई के साथ बढ़ता NTK बेस; YaRN: रैंप + अटेंशन फ़ैक्टर; Llama-3: बैंड रखें/मिलाएँ/भाग दें; LongRoPE: हर जोड़ी का अपना फ़ैक्टर।</translation>
    </message>
    <message>
        <source>Scaling factor</source>
        <translation>स्केलिंग फ़ैक्टर</translation>
    </message>
    <message>
        <source>How many times longer the extended context is than the trained one (all scaling types).</source>
        <translation>बढ़ाया गया कॉन्टेक्स्ट ट्रेन किए गए कॉन्टेक्स्ट से कितने गुना लंबा है (सभी स्केलिंग प्रकार)।</translation>
    </message>
    <message>
        <source>Original context</source>
        <translation>मूल कॉन्टेक्स्ट</translation>
    </message>
    <message>
        <source>Trained (pre-extension) context length. For dynamic this is config max_position_embeddings.</source>
        <translation>ट्रेनिंग की (विस्तार से पहले की) कॉन्टेक्स्ट लंबाई। डायनेमिक के लिए यह कॉन्फ़िग का max_position_embeddings है।</translation>
    </message>
    <message>
        <source>Extended context</source>
        <translation>बढ़ाया गया कॉन्टेक्स्ट</translation>
    </message>
    <message>
        <source>Context length the config claims (config max_position_embeddings). 0: not given, taken as original × factor. A value that disagrees with the factor is reported.</source>
        <translation>कॉन्फ़िग जो कॉन्टेक्स्ट लंबाई बताता है (कॉन्फ़िग का max_position_embeddings)। 0: नहीं दिया, मूल × फ़ैक्टर माना जाता है। फ़ैक्टर से मेल न खाने वाला मान बताया जाता है।</translation>
    </message>
    <message>
        <source>YaRN beta_fast</source>
        <translation>YaRN beta_fast</translation>
    </message>
    <message>
        <source>yarn: pairs turning more than beta_fast times within the original context keep their frequency.</source>
        <translation>YaRN: मूल कॉन्टेक्स्ट में beta_fast से अधिक बार घूमने वाली जोड़ियाँ अपनी फ़्रीक्वेंसी रखती हैं।</translation>
    </message>
    <message>
        <source>YaRN beta_slow</source>
        <translation>YaRN beta_slow</translation>
    </message>
    <message>
        <source>yarn: pairs turning fewer than beta_slow times are divided by factor.</source>
        <translation>YaRN: beta_slow से कम बार घूमने वाली जोड़ियों को फ़ैक्टर से भाग दिया जाता है।</translation>
    </message>
    <message>
        <source>YaRN mscale</source>
        <translation>YaRN mscale</translation>
    </message>
    <message>
        <source>yarn (DeepSeek): with mscale_all_dim, attention factor = mscale(factor, mscale) / mscale(factor, mscale_all_dim). 0: not set.</source>
        <translation>YaRN (DeepSeek): mscale_all_dim के साथ, अटेंशन फ़ैक्टर = mscale(फ़ैक्टर, mscale) / mscale(फ़ैक्टर, mscale_all_dim)। 0: तय नहीं।</translation>
    </message>
    <message>
        <source>YaRN mscale_all_dim</source>
        <translation>YaRN mscale_all_dim</translation>
    </message>
    <message>
        <source>yarn (DeepSeek): see mscale. 0: not set.</source>
        <translation>YaRN (DeepSeek): mscale देखें। 0: तय नहीं।</translation>
    </message>
    <message>
        <source>Attention factor</source>
        <translation>अटेंशन फ़ैक्टर</translation>
    </message>
    <message>
        <source>yarn, longrope: multiplies cos and sin (logits scale by its square). 0: the method&apos;s default formula.</source>
        <translation>YaRN, LongRoPE: cos और sin को गुणा करता है (लॉजिट्स इसके वर्ग से बढ़ते हैं)। 0: विधि का डिफ़ॉल्ट सूत्र।</translation>
    </message>
    <message>
        <source>YaRN truncate</source>
        <translation>YaRN ट्रंकेट</translation>
    </message>
    <message>
        <source>yarn: floor/ceil the ramp bounds to whole pairs.</source>
        <translation>YaRN: रैंप की सीमाओं को पूरी जोड़ियों तक floor/ceil करें।</translation>
    </message>
    <message>
        <source>Llama-3 low_freq_factor</source>
        <translation>Llama-3 low_freq_factor</translation>
    </message>
    <message>
        <source>llama3: wavelengths above original/low_freq_factor are divided by factor.</source>
        <translation>Llama-3: मूल/low_freq_factor से लंबी वेवलेंथ को फ़ैक्टर से भाग दिया जाता है।</translation>
    </message>
    <message>
        <source>Llama-3 high_freq_factor</source>
        <translation>Llama-3 high_freq_factor</translation>
    </message>
    <message>
        <source>llama3: wavelengths below original/high_freq_factor are kept.</source>
        <translation>Llama-3: मूल/high_freq_factor से छोटी वेवलेंथ वैसी ही रहती हैं।</translation>
    </message>
    <message>
        <source>How many positions (rows) to show.</source>
        <translation>कितनी पोज़िशन्स (पंक्तियाँ) दिखानी हैं।</translation>
    </message>
    <message>
        <source>Embedding width; dimensions come in sin/cos pairs.</source>
        <translation>एम्बेडिंग की चौड़ाई; डायमेंशन्स sin/cos जोड़ियों में आते हैं।</translation>
    </message>
    <message>
        <source>Base</source>
        <translation>बेस</translation>
    </message>
    <message>
        <source>Longest wavelength is base·2π positions (10000 in the paper).</source>
        <translation>सबसे लंबी वेवलेंथ बेस·2π पोज़िशन्स है (पेपर में 10000)।</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>लेआउट</translation>
    </message>
    <message>
        <source>concatenated</source>
        <translation>कॉन्कैटिनेटेड</translation>
    </message>
    <message>
        <source>interleaved: sin,cos,sin,cos… (paper); concatenated: [sin… | cos…].</source>
        <translation>इंटरलीव्ड: sin,cos,sin,cos… (पेपर); कॉन्कैटिनेटेड: [sin… | cos…]।</translation>
    </message>
    <message>
        <source>Word</source>
        <translation>शब्द</translation>
    </message>
    <message>
        <source>The word to embed; its embedding depends on the word only, never on position</source>
        <translation>एम्बेड करने वाला शब्द; उसकी एम्बेडिंग केवल शब्द पर निर्भर करती है, पोज़िशन पर कभी नहीं</translation>
    </message>
    <message>
        <source>embedding</source>
        <translation>एम्बेडिंग</translation>
    </message>
    <message>
        <source>article&apos;s vector</source>
        <translation>लेख का वेक्टर</translation>
    </message>
    <message>
        <source>hashed from the word</source>
        <translation>शब्द से हैश किया हुआ</translation>
    </message>
    <message>
        <source>The article&apos;s 4-dimensional vector [0.51, −0.22, 0.88, 0.14], or a deterministic stand-in derived from the word (any d_model)</source>
        <translation>लेख का 4-डायमेंशनल वेक्टर [0.51, −0.22, 0.88, 0.14], या शब्द से बना एक तय विकल्प (कोई भी d_model)</translation>
    </message>
    <message>
        <source>Embedding width (the article uses 4)</source>
        <translation>एम्बेडिंग की चौड़ाई (लेख में 4)</translation>
    </message>
    <message>
        <source>Scheme</source>
        <translation>स्कीम</translation>
    </message>
    <message>
        <source>Added to the embedding (sinusoidal, learned), rotating it (RoPE), or leaving it alone (ALiBi, NoPE)</source>
        <translation>एम्बेडिंग में जोड़ी जाती है (साइनुसॉइडल, लर्न्ड), उसे घुमाती है (RoPE), या उसे नहीं छूती (ALiBi, NoPE)</translation>
    </message>
    <message>
        <source>position</source>
        <translation>पोज़िशन</translation>
    </message>
    <message>
        <source>Where the word sits in the sequence</source>
        <translation>सीक्वेंस में शब्द कहाँ है</translation>
    </message>
    <message>
        <source>compare</source>
        <translation>तुलना</translation>
    </message>
    <message>
        <source>The same word at another position, for comparison (the article uses 5)</source>
        <translation>तुलना के लिए वही शब्द किसी दूसरी पोज़िशन पर (लेख में 5)</translation>
    </message>
    <message>
        <source>table rows</source>
        <translation>टेबल की पंक्तियाँ</translation>
    </message>
    <message>
        <source>Rows of the learned table: positions at or past this do not exist</source>
        <translation>लर्न्ड टेबल की पंक्तियाँ: इस पर या इसके आगे की पोज़िशन्स मौजूद नहीं हैं</translation>
    </message>
    <message>
        <source>pair view</source>
        <translation>जोड़ी दृश्य</translation>
    </message>
    <message>
        <source>Which pair of dimensions the arrow view shows</source>
        <translation>तीर वाला दृश्य डायमेंशन्स की कौन-सी जोड़ी दिखाए</translation>
    </message>
    <message>
        <source>training length</source>
        <translation>ट्रेनिंग लंबाई</translation>
    </message>
    <message>
        <source>Longest sequence seen in training (tokens)</source>
        <translation>ट्रेनिंग में देखा गया सबसे लंबा सीक्वेंस (टोकन्स)</translation>
    </message>
    <message>
        <source>evaluation length</source>
        <translation>मूल्यांकन लंबाई</translation>
    </message>
    <message>
        <source>Length the model is asked to read (tokens)</source>
        <translation>वह लंबाई जो मॉडल को पढ़नी है (टोकन्स)</translation>
    </message>
    <message>
        <source>RoPE factor</source>
        <translation>RoPE फ़ैक्टर</translation>
    </message>
    <message>
        <source>RoPE scaling factor; 0 = evaluation length / training length</source>
        <translation>RoPE स्केलिंग फ़ैक्टर; 0 = मूल्यांकन लंबाई / ट्रेनिंग लंबाई</translation>
    </message>
    <message>
        <source>sinusoid d_model</source>
        <translation>साइनुसॉइड d_model</translation>
    </message>
    <message>
        <source>Sinusoidal d_model (even)</source>
        <translation>साइनुसॉइडल d_model (सम)</translation>
    </message>
    <message>
        <source>RoPE head_dim</source>
        <translation>RoPE head_dim</translation>
    </message>
    <message>
        <source>RoPE head_dim (even)</source>
        <translation>RoPE head_dim (सम)</translation>
    </message>
    <message>
        <source>RoPE base</source>
        <translation>RoPE बेस</translation>
    </message>
    <message>
        <source>RoPE base (rope_theta): 10,000 in Llama 2, 500,000 in Llama 3</source>
        <translation>RoPE बेस (rope_theta): Llama 2 में 10,000, Llama 3 में 500,000</translation>
    </message>
    <message>
        <source>ALiBi heads</source>
        <translation>ALiBi हेड्स</translation>
    </message>
    <message>
        <source>ALiBi threshold</source>
        <translation>ALiBi सीमा</translation>
    </message>
    <message>
        <source>ALiBi reach: the distance where a head&apos;s bias falls below −threshold (−10 scales attention by e^−10 ≈ 0.00005)</source>
        <translation>ALiBi की पहुँच: वह दूरी जहाँ किसी हेड का बायस −सीमा से नीचे गिरता है (−10 अटेंशन को e^−10 ≈ 0.00005 गुना कर देता है)</translation>
    </message>
    <message>
        <source>T5 buckets</source>
        <translation>T5 बकेट</translation>
    </message>
    <message>
        <source>T5 buckets (even; half exact, half log-spaced)</source>
        <translation>T5 बकेट (सम; आधे सटीक, आधे लॉग-अंतराल वाले)</translation>
    </message>
    <message>
        <source>T5 max distance</source>
        <translation>T5 अधिकतम दूरी</translation>
    </message>
    <message>
        <source>T5 max_distance: every farther distance shares the last bucket</source>
        <translation>T5 max_distance: इससे दूर की हर दूरी आख़िरी बकेट साझा करती है</translation>
    </message>
    <message>
        <source>Encoding table</source>
        <translation>एनकोडिंग टेबल</translation>
    </message>
    <message>
        <source>Position similarity</source>
        <translation>पोज़िशन समानता</translation>
    </message>
    <message>
        <source>Show the table itself, or how similar every position is to every other (T)</source>
        <translation>टेबल ख़ुद दिखाएँ, या हर पोज़िशन बाकी हर पोज़िशन से कितनी मिलती है (T)</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>समानता</translation>
    </message>
    <message>
        <source>cosine</source>
        <translation>कोसाइन</translation>
    </message>
    <message>
        <source>dot</source>
        <translation>डॉट प्रोडक्ट</translation>
    </message>
    <message>
        <source>Cosine: direction only; dot: what attention would compute from PE alone</source>
        <translation>कोसाइन: केवल दिशा; डॉट प्रोडक्ट: जो अटेंशन केवल PE से गणना करता</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>चित्र</translation>
    </message>
    <message>
        <source>A PNG or JPEG drawn under the patch grid, resized to the image size; empty: the built-in landscape.</source>
        <translation>पैच ग्रिड के नीचे बनाया गया PNG या JPEG, चित्र के आकार में बदला हुआ; खाली: अंतर्निहित लैंडस्केप।</translation>
    </message>
    <message>
        <source>1 pos/frame</source>
        <translation>1 पोज़िशन/फ़्रेम</translation>
    </message>
    <message>
        <source>2 pos/frame</source>
        <translation>2 पोज़िशन/फ़्रेम</translation>
    </message>
    <message>
        <source>4 pos/frame</source>
        <translation>4 पोज़िशन/फ़्रेम</translation>
    </message>
    <message>
        <source>16 pos/frame</source>
        <translation>16 पोज़िशन/फ़्रेम</translation>
    </message>
    <message>
        <source>64 pos/frame</source>
        <translation>64 पोज़िशन/फ़्रेम</translation>
    </message>
    <message>
        <source>256 pos/frame</source>
        <translation>256 पोज़िशन/फ़्रेम</translation>
    </message>
    <message>
        <source>Pair</source>
        <translation>जोड़ी</translation>
    </message>
    <message>
        <source>The dimension pair shown in the lower plots (0 = fastest)</source>
        <translation>नीचे के प्लॉट्स में दिखाई गई डायमेंशन जोड़ी (0 = सबसे तेज़)</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>गति</translation>
    </message>
    <message>
        <source>How many positions each animation frame advances</source>
        <translation>ऐनिमेशन का हर फ़्रेम कितनी पोज़िशन्स आगे बढ़ता है</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>पोज़िशन</translation>
    </message>
    <message>
        <source>Position of the token (the shift applied to both q and k below)</source>
        <translation>टोकन की पोज़िशन (नीचे q और k दोनों पर लगाया गया खिसकाव)</translation>
    </message>
    <message>
        <source>q at m</source>
        <translation>m पर q</translation>
    </message>
    <message>
        <source>The query position m (before the shared shift)</source>
        <translation>क्वेरी पोज़िशन m (साझा खिसकाव से पहले)</translation>
    </message>
    <message>
        <source>k at n</source>
        <translation>n पर k</translation>
    </message>
    <message>
        <source>The key position n (before the shared shift)</source>
        <translation>की पोज़िशन n (साझा खिसकाव से पहले)</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>सेकंड</translation>
    </message>
    <message>
        <source>minutes</source>
        <translation>मिनट</translation>
    </message>
    <message>
        <source>hours</source>
        <translation>घंटे</translation>
    </message>
    <message>
        <source>days</source>
        <translation>दिन</translation>
    </message>
    <message>
        <source>Unix seconds</source>
        <translation>यूनिक्स सेकंड</translation>
    </message>
    <message>
        <source>Unix milliseconds</source>
        <translation>यूनिक्स मिलीसेकंड</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>डेटा</translation>
    </message>
    <message>
        <source>The CSV file read; empty: the built-in sensor sample</source>
        <translation>पढ़ी गई CSV फ़ाइल; खाली: अंतर्निहित सेंसर सैंपल</translation>
    </message>
    <message>
        <source>The column holding the timestamps</source>
        <translation>टाइमस्टैम्प वाला कॉलम</translation>
    </message>
    <message>
        <source>time</source>
        <translation>समय</translation>
    </message>
    <message>
        <source>value</source>
        <translation>मान</translation>
    </message>
    <message>
        <source>Optional: a numeric column to plot above the encoding (empty: none)</source>
        <translation>वैकल्पिक: एनकोडिंग के ऊपर प्लॉट करने के लिए संख्याओं वाला कॉलम (खाली: कोई नहीं)</translation>
    </message>
    <message>
        <source>numbers in</source>
        <translation>संख्याओं की इकाई</translation>
    </message>
    <message>
        <source>What plain-number timestamps count (Unix times also allow calendar cycles)</source>
        <translation>सादी संख्या वाले टाइमस्टैम्प क्या गिनते हैं (यूनिक्स समय से कैलेंडर चक्र भी मिलते हैं)</translation>
    </message>
    <message>
        <source>Encoding</source>
        <translation>एनकोडिंग</translation>
    </message>
    <message>
        <source>Sinusoid of the real elapsed time; calendar cycles as sin/cos pairs; or a Time2Vec-style linear + periodic encoding with seeded parameters</source>
        <translation>बीते हुए असली समय का साइनुसॉइड; sin/cos जोड़ियों के रूप में कैलेंडर चक्र; या सीड वाले पैरामीटर्स के साथ Time2Vec जैसी लीनियर + आवर्ती एनकोडिंग</translation>
    </message>
    <message>
        <source>unit</source>
        <translation>इकाई</translation>
    </message>
    <message>
        <source>One unit of elapsed time = one position step of the sinusoid</source>
        <translation>बीते समय की एक इकाई = साइनुसॉइड का एक पोज़िशन स्टेप</translation>
    </message>
    <message>
        <source>Width of the sinusoidal time encoding (even: sin/cos pairs)</source>
        <translation>साइनुसॉइडल टाइम एनकोडिंग की चौड़ाई (सम: sin/cos जोड़ियाँ)</translation>
    </message>
    <message>
        <source>base</source>
        <translation>बेस</translation>
    </message>
    <message>
        <source>Sinusoid base: the slowest pair&apos;s wavelength is base·2π time units</source>
        <translation>साइनुसॉइड बेस: सबसे धीमी जोड़ी की वेवलेंथ बेस·2π समय इकाइयाँ है</translation>
    </message>
    <message>
        <source>features k</source>
        <translation>फ़ीचर्स k</translation>
    </message>
    <message>
        <source>Time2Vec features: 1 linear + k − 1 periodic</source>
        <translation>Time2Vec फ़ीचर्स: 1 लीनियर + k − 1 आवर्ती</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>सीड</translation>
    </message>
    <message>
        <source>Seed of the Time2Vec parameters (a model would learn them)</source>
        <translation>Time2Vec पैरामीटर्स का सीड (मॉडल इन्हें सीखता)</translation>
    </message>
    <message>
        <source>A sample (row, in time order) for the two-timestamp comparison</source>
        <translation>दो टाइमस्टैम्प की तुलना के लिए एक सैंपल (पंक्ति, समय के क्रम में)</translation>
    </message>
    <message>
        <source>with</source>
        <translation>और</translation>
    </message>
    <message>
        <source>Settings from</source>
        <translation>सेटिंग्स कहाँ से</translation>
    </message>
    <message>
        <source>auto: the open checkpoint&apos;s config when it has M-RoPE, else the model style&apos;s preset; style: always the preset.</source>
        <translation>auto: खुले चेकपॉइंट का config, अगर उसमें M-RoPE है, नहीं तो मॉडल स्टाइल का प्रीसेट; style: हमेशा प्रीसेट।</translation>
    </message>
    <message>
        <source>Model style</source>
        <translation>मॉडल स्टाइल</translation>
    </message>
    <message>
        <source>A released model&apos;s settings (head_dim 128, its base, sections and merge size) when no checkpoint gives them.</source>
        <translation>जारी किए गए मॉडल की सेटिंग्स (head_dim 128, उसका बेस, खंड और मर्ज साइज़), जब कोई चेकपॉइंट उन्हें नहीं देता।</translation>
    </message>
    <message>
        <source>Sequence</source>
        <translation>सीक्वेंस</translation>
    </message>
    <message>
        <source>Blocks separated by commas: text N, image HxW, video FxHxW @Ss (rows and columns after merging; F token frames, S seconds between them).</source>
        <translation>कॉमा से अलग ब्लॉक: text N, image HxW, video FxHxW @Ss (मर्ज के बाद पंक्तियाँ और कॉलम; F टोकन फ़्रेम, S उनके बीच के सेकंड)।</translation>
    </message>
    <message>
        <source>Timestamp tokens</source>
        <translation>टाइमस्टैम्प टोकन्स</translation>
    </message>
    <message>
        <source>Qwen3-VL and GLM-4V: text tokens of the timestamp before each video frame (they separate frames by text, not by t ids).</source>
        <translation>Qwen3-VL और GLM-4V: हर वीडियो फ़्रेम से पहले टाइमस्टैम्प के टेक्स्ट टोकन्स (ये मॉडल फ़्रेम्स को t ids से नहीं, टेक्स्ट से अलग करते हैं)।</translation>
    </message>
    <message>
        <source>Design</source>
        <translation>डिज़ाइन</translation>
    </message>
    <message>
        <source>The model&apos;s M-RoPE, or a later design drawn from its paper&apos;s formulas on the same sequence.</source>
        <translation>मॉडल का M-RoPE, या बाद का कोई डिज़ाइन, उसी सीक्वेंस पर उसके पेपर के सूत्रों से बनाया गया।</translation>
    </message>
    <message>
        <source>Temporal spacing</source>
        <translation>समय का अंतराल</translation>
    </message>
    <message>
        <source>VideoRoPE: δ, the t step per frame; HoPE: γ, the scale of the video&apos;s t ids.</source>
        <translation>VideoRoPE: δ, हर फ़्रेम पर t का कदम; HoPE: γ, वीडियो के t ids का स्केल।</translation>
    </message>
    <message>
        <source>V2PE step</source>
        <translation>V2PE कदम</translation>
    </message>
    <message>
        <source>V2PE: how far one visual token advances the position (text: 1).</source>
        <translation>V2PE: एक विज़ुअल टोकन पोज़िशन को कितना आगे बढ़ाता है (टेक्स्ट: 1)।</translation>
    </message>
    <message>
        <source>Query token</source>
        <translation>क्वेरी टोकन</translation>
    </message>
    <message>
        <source>The token whose RoPE scores to every key are drawn; −1: the middle patch of the last visual block.</source>
        <translation>वह टोकन जिसके हर की से RoPE स्कोर दिखाए जाते हैं; −1: आख़िरी विज़ुअल ब्लॉक का बीच वाला पैच।</translation>
    </message>
</context>
<context>
    <name>PatchGrid</name>
    <message>
        <source>2D sin-cos (MAE)</source>
        <translation>2D sin-cos (MAE)</translation>
    </message>
    <message>
        <source>Learned 2D (random init)</source>
        <translation>लर्न्ड 2D (रैंडम इनिशियलाइज़ेशन)</translation>
    </message>
    <message>
        <source>Axial 2D RoPE</source>
        <translation>अक्षीय 2D RoPE</translation>
    </message>
    <message>
        <source>Flattened 1D sinusoid</source>
        <translation>सपाट किया 1D साइनुसॉइड</translation>
    </message>
    <message>
        <source>Learned table (given)</source>
        <translation>लर्न्ड टेबल (दी गई)</translation>
    </message>
    <message>
        <source>Relative bias table (given)</source>
        <translation>रिलेटिव बायस टेबल (दी गई)</translation>
    </message>
    <message>
        <source>— none —</source>
        <translation>— कोई नहीं —</translation>
    </message>
    <message>
        <source>A resampled to…</source>
        <translation>A को रीसैंपल करें…</translation>
    </message>
    <message>
        <source>ones</source>
        <translation>सभी 1</translation>
    </message>
    <message>
        <source>random</source>
        <translation>रैंडम</translation>
    </message>
    <message>
        <source>data range</source>
        <translation>डेटा का दायरा</translation>
    </message>
    <message>
        <source>no relative position bias table is loaded; open a BEiT or Swin checkpoint and choose its relative_bias_2d component, or choose another encoding</source>
        <translation>कोई रिलेटिव पोज़िशन बायस टेबल लोड नहीं है; कोई BEiT या Swin चेकपॉइंट खोलें और उसका relative_bias_2d घटक चुनें, या कोई दूसरी एनकोडिंग चुनें</translation>
    </message>
    <message>
        <source>relative bias, head {head} of {heads}</source>
        <translation>रिलेटिव बायस, {heads} में से हेड {head}</translation>
    </message>
    <message>
        <source>bias added to the logit</source>
        <translation>लॉजिट में जोड़ा गया बायस</translation>
    </message>
    <message>
        <source>RoPE has no table to resample: its rotations are evaluated on the {rows}×{cols} grid directly (the same relative offsets give the same scores).</source>
        <translation>RoPE की कोई टेबल नहीं जिसे रीसैंपल किया जाए: इसके रोटेशन सीधे {rows}×{cols} ग्रिड पर निकाले जाते हैं (वही रिलेटिव ऑफ़सेट वही स्कोर देते हैं)।</translation>
    </message>
    <message>
        <source>{encoding} resampled to {rows}×{cols}</source>
        <translation>{encoding}, {rows}×{cols} पर रीसैंपल</translation>
    </message>
    <message>
        <source>cosine similarity</source>
        <translation>कोसाइन समानता</translation>
    </message>
    <message>
        <source>rotated dot product / |v|²</source>
        <translation>घुमाया हुआ डॉट प्रोडक्ट / |v|²</translation>
    </message>
    <message>
        <source>class token (kept out of the grid): class → patch {to_patch:+.4f}, patch → class {to_class:+.4f}, class → class {class_class:+.4f}</source>
        <translation>क्लास टोकन (ग्रिड से बाहर): क्लास → पैच {to_patch:+.4f}, पैच → क्लास {to_class:+.4f}, क्लास → क्लास {class_class:+.4f}</translation>
    </message>
    <message>
        <source>; {rows} px rows and {cols} px columns past the last patch are dropped</source>
        <translation>; आख़िरी पैच के आगे की {rows} px पंक्तियाँ और {cols} px कॉलम छोड़ दिए जाते हैं</translation>
    </message>
    <message>
        <source> (no prefix tokens)</source>
        <translation> (कोई प्रीफ़िक्स टोकन नहीं)</translation>
    </message>
    <message>
        <source> + 1 prefix token</source>
        <translation> + 1 प्रीफ़िक्स टोकन</translation>
    </message>
    <message>
        <source> + {n} prefix tokens</source>
        <translation> + {n} प्रीफ़िक्स टोकन्स</translation>
    </message>
    <message>
        <source>{ih}×{iw} px image, {ph}×{pw} px patches → {gh}×{gw} = {n:,} patches{prefix}{crop}</source>
        <translation>{ih}×{iw} px चित्र, {ph}×{pw} px पैच → {gh}×{gw} = {n:,} पैच{prefix}{crop}</translation>
    </message>
    <message>
        <source>patch ({r},{c}): grid neighbours {listed} (mean {mean:+.3f})</source>
        <translation>पैच ({r},{c}): ग्रिड पड़ोसी {listed} (औसत {mean:+.3f})</translation>
    </message>
    <message>
        <source>adjacent only in the flattened order {listed}</source>
        <translation>केवल सपाट क्रम में पास {listed}</translation>
    </message>
    <message>
        <source>its flattened-order neighbours are grid neighbours too (not at a row end)</source>
        <translation>सपाट क्रम के इसके पड़ोसी ग्रिड पड़ोसी भी हैं (पंक्ति के छोर पर नहीं)</translation>
    </message>
    <message>
        <source>the {k} most similar patches {listed} are all its grid neighbours</source>
        <translation>सबसे मिलते-जुलते {k} पैच {listed} सभी इसके ग्रिड पड़ोसी हैं</translation>
    </message>
    <message>
        <source>none of the {k} most similar patches {listed} is a grid neighbour</source>
        <translation>सबसे मिलते-जुलते {k} पैचों {listed} में से कोई भी ग्रिड पड़ोसी नहीं है</translation>
    </message>
    <message>
        <source>of the {k} most similar patches, {inside} is a grid neighbour</source>
        <translation>सबसे मिलते-जुलते {k} पैचों में से {inside} ग्रिड पड़ोसी है</translation>
    </message>
    <message>
        <source>of the {k} most similar patches, {inside} are grid neighbours</source>
        <translation>सबसे मिलते-जुलते {k} पैचों में से {inside} ग्रिड पड़ोसी हैं</translation>
    </message>
    <message>
        <source> and {outside} is not</source>
        <translation> और {outside} नहीं है</translation>
    </message>
    <message>
        <source> and {outside} are not</source>
        <translation> और {outside} नहीं हैं</translation>
    </message>
    <message>
        <source>upsampled</source>
        <translation>अपसैंपल किया</translation>
    </message>
    <message>
        <source>downsampled</source>
        <translation>डाउनसैंपल किया</translation>
    </message>
    <message>
        <source>kept</source>
        <translation>वैसा ही रखा</translation>
    </message>
    <message>
        <source>copied unchanged</source>
        <translation>बिना बदले कॉपी किए</translation>
    </message>
    <message>
        <source>CHANGED</source>
        <translation>बदल गए</translation>
    </message>
    <message>
        <source>{oh}×{ow} → {nh}×{nw} patches ({verb}; {old:,} → {new:,} rows with {prefix_n} prefix token(s) {prefix}), {mode} in float32. Mean row norm {norm_before:.4g} → {norm_after:.4g}; values [{low_before:.3g}, {high_before:.3g}] → [{low_after:.3g}, {high_after:.3g}]; resampling back to {oh}×{ow} differs by {error:.2f}% (relative RMS).</source>
        <translation>{oh}×{ow} → {nh}×{nw} पैच ({verb}; {old:,} → {new:,} पंक्तियाँ, {prefix_n} प्रीफ़िक्स टोकन {prefix}), float32 में {mode}। पंक्तियों का औसत नॉर्म {norm_before:.4g} → {norm_after:.4g}; मान [{low_before:.3g}, {high_before:.3g}] → [{low_after:.3g}, {high_after:.3g}]; वापस {oh}×{ow} पर रीसैंपल करने से {error:.2f}% का अंतर (रिलेटिव RMS)।</translation>
    </message>
    <message>
        <source>tiles A</source>
        <extracomment>the plots&apos; names in hover read-outs (the keys are the dock&apos;s own)</extracomment>
        <translation>टाइल्स A</translation>
    </message>
    <message>
        <source>tiles B</source>
        <translation>टाइल्स B</translation>
    </message>
    <message>
        <source>map A</source>
        <translation>मैप A</translation>
    </message>
    <message>
        <source>map B</source>
        <translation>मैप B</translation>
    </message>
    <message>
        <source>image</source>
        <translation>चित्र</translation>
    </message>
    <message>
        <source>Hover over a tile, map or the image for values; click to select a patch.</source>
        <translation>मानों के लिए किसी टाइल, मैप या चित्र पर पॉइंटर रखें; पैच चुनने के लिए क्लिक करें।</translation>
    </message>
    <message>
        <source>column</source>
        <translation>कॉलम</translation>
    </message>
    <message>
        <source>row</source>
        <translation>पंक्ति</translation>
    </message>
    <message>
        <source>x (pixels)</source>
        <translation>x (पिक्सेल)</translation>
    </message>
    <message>
        <source>y (pixels)</source>
        <translation>y (पिक्सेल)</translation>
    </message>
    <message>
        <source>similarity</source>
        <translation>समानता</translation>
    </message>
    <message>
        <source>image px</source>
        <translation>चित्र px</translation>
    </message>
    <message>
        <source>patch px</source>
        <translation>पैच px</translation>
    </message>
    <message>
        <source>prefix</source>
        <translation>प्रीफ़िक्स</translation>
    </message>
    <message>
        <source>colours</source>
        <translation>रंग</translation>
    </message>
    <message>
        <source>base</source>
        <translation>बेस</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>सीड</translation>
    </message>
    <message>
        <source>dim</source>
        <translation>डायमेंशन</translation>
    </message>
    <message>
        <source>RoPE v</source>
        <translation>RoPE v</translation>
    </message>
    <message>
        <source>resample to</source>
        <translation>रीसैंपल</translation>
    </message>
    <message>
        <source>bias head</source>
        <translation>बायस हेड</translation>
    </message>
    <message>
        <source>Open image…</source>
        <translation>चित्र खोलें…</translation>
    </message>
    <message>
        <source>Show a PNG or JPEG of your own under the patch grid</source>
        <translation>पैच ग्रिड के नीचे अपना PNG या JPEG दिखाएँ</translation>
    </message>
    <message>
        <source>Sample image</source>
        <translation>सैंपल चित्र</translation>
    </message>
    <message>
        <source>Back to the built-in landscape</source>
        <translation>अंतर्निहित लैंडस्केप पर लौटें</translation>
    </message>
    <message>
        <source>Image under the patch grid</source>
        <translation>पैच ग्रिड के नीचे का चित्र</translation>
    </message>
    <message>
        <source>Images (*.png *.jpg *.jpeg *.bmp)</source>
        <translation>चित्र (*.png *.jpg *.jpeg *.bmp)</translation>
    </message>
    <message>
        <source> (the previous picture is kept)</source>
        <translation> (पिछला चित्र बना रहता है)</translation>
    </message>
    <message>
        <source>bias</source>
        <translation>बायस</translation>
    </message>
    <message>
        <source>image, {h}×{w} px patches</source>
        <translation>चित्र, {h}×{w} px पैच</translation>
    </message>
    <message>
        <source>{letter}: patch ({r},{c}) vs all</source>
        <translation>{letter}: पैच ({r},{c}) बनाम सभी</translation>
    </message>
    <message>
        <source>{report}. Over the grid: the most similar patches are the grid neighbours for {ok:,} of {n:,} patches ({ok_ends} of {ends} row ends).</source>
        <translation>{report}। पूरे ग्रिड पर: {n:,} में से {ok:,} पैचों के लिए सबसे मिलते-जुलते पैच ग्रिड पड़ोसी हैं (पंक्ति के {ends} छोरों में से {ok_ends})।</translation>
    </message>
    <message>
        <source>prefix row {k}: mean cosine with the patches {mean:+.3f}, highest {best:+.3f} at ({r},{c})</source>
        <translation>प्रीफ़िक्स पंक्ति {k}: पैचों से औसत कोसाइन {mean:+.3f}, सबसे अधिक {best:+.3f} ({r},{c}) पर</translation>
    </message>
    <message>
        <source>(kept out of the grid) </source>
        <translation>(ग्रिड से बाहर) </translation>
    </message>
    <message>
        <source>{grid}. Each small tile is one patch; its pixels show how similar that patch&apos;s position encoding is to every patch&apos;s ({what}; one colour bar for every image), as in the ViT paper&apos;s Fig. 7. A 2D encoding gives each tile a bright blob around its own patch; a flattened 1D one gives horizontal stripes that wrap from one row end to the next row start.</source>
        <translation>{grid}। हर छोटी टाइल एक पैच है; उसके पिक्सेल दिखाते हैं कि उस पैच की पोज़िशन एनकोडिंग हर पैच की एनकोडिंग से कितनी मिलती है ({what}; सभी चित्रों के लिए एक ही कलर बार), जैसे ViT पेपर के चित्र 7 में। 2D एनकोडिंग में हर टाइल पर उसके अपने पैच के आसपास एक चमकीला धब्बा बनता है; सपाट 1D एनकोडिंग में आड़ी धारियाँ बनती हैं जो एक पंक्ति के छोर से अगली पंक्ति की शुरुआत तक मुड़ती हैं।</translation>
    </message>
    <message>
        <source> Panel A is {table} ({n} prefix row(s) left out).</source>
        <translation> पैनल A {table} है ({n} प्रीफ़िक्स पंक्ति(याँ) छोड़ी गईं)।</translation>
    </message>
    <message>
        <source> Panel {letter} is not a similarity: each tile is one query patch&apos;s learned bias to every key patch of the window (added to the attention logits; {label}), {note}</source>
        <translation> पैनल {letter} समानता नहीं है: हर टाइल एक क्वेरी पैच का विंडो के हर की पैच के लिए लर्न्ड बायस है (अटेंशन लॉजिट्स में जोड़ा जाता है; {label}), {note}</translation>
    </message>
    <message>
        <source>{where}: tile of patch ({tr},{tc}), cell ({r},{c}) — {what} {value:+.4f} (offset {dr:+d} rows, {dc:+d} columns)</source>
        <translation>{where}: पैच ({tr},{tc}) की टाइल, सेल ({r},{c}) — {what} {value:+.4f} (ऑफ़सेट {dr:+d} पंक्तियाँ, {dc:+d} कॉलम)</translation>
    </message>
    <message>
        <source>{where}: patch ({r},{c}) vs selected ({sr},{sc}) — {what} {value:+.4f}</source>
        <translation>{where}: पैच ({r},{c}) बनाम चुना गया ({sr},{sc}) — {what} {value:+.4f}</translation>
    </message>
    <message>
        <source>; pixels x {x0}–{x1}, y {y0}–{y1}</source>
        <translation>; पिक्सेल x {x0}–{x1}, y {y0}–{y1}</translation>
    </message>
    <message>
        <source>Patch position similarity — {a}</source>
        <translation>पैच पोज़िशन समानता — {a}</translation>
    </message>
    <message>
        <source>Patch position similarity — {a} vs {b}</source>
        <translation>पैच पोज़िशन समानता — {a} बनाम {b}</translation>
    </message>
</context>
<context>
    <name>Rotations</name>
    <message>
        <source>Advance the position continuously; pauses when the panel is hidden</source>
        <translation>पोज़िशन को लगातार आगे बढ़ाएँ; पैनल छिपने पर रुक जाता है</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>पोज़िशन</translation>
    </message>
    <message>
        <source>q at m + shift</source>
        <translation>m + खिसकाव पर q</translation>
    </message>
    <message>
        <source>k at n + shift</source>
        <translation>n + खिसकाव पर k</translation>
    </message>
    <message>
        <source>q at m, k at n (no shift)</source>
        <translation>m पर q, n पर k (बिना खिसकाव)</translation>
    </message>
    <message>
        <source>token x</source>
        <translation>टोकन x</translation>
    </message>
    <message>
        <source>x + sinusoid PE(pos)</source>
        <translation>x + साइनुसॉइड PE(पोज़िशन)</translation>
    </message>
    <message>
        <source>RoPE: R(pos)·x</source>
        <translation>RoPE: R(पोज़िशन)·x</translation>
    </message>
    <message>
        <source>Hover over a plot for its numbers; click a small plot to show that pair below.</source>
        <translation>संख्याएँ देखने के लिए किसी प्लॉट पर पॉइंटर रखें; वह जोड़ी नीचे दिखाने के लिए किसी छोटे प्लॉट पर क्लिक करें।</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>रोकें</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>चलाएँ</translation>
    </message>
    <message>
        <source>pair {pair}{mark} · λ {wavelength:,.1f}</source>
        <translation>जोड़ी {pair}{mark} · λ {wavelength:,.1f}</translation>
    </message>
    <message>
        <source>Relative, pair {pair}: q at m = {m}, k at n = {n}, both shifted by the position</source>
        <translation>रिलेटिव, जोड़ी {pair}: m = {m} पर q, n = {n} पर k, दोनों पोज़िशन जितने खिसकाए गए</translation>
    </message>
    <message>
        <source>Additive vs rotary, pair {pair}: the same token x</source>
        <translation>जोड़ना बनाम घुमाना, जोड़ी {pair}: वही टोकन x</translation>
    </message>
    <message>
        <source>Pair {pair} turns once every {wavelength:,.1f} positions (θ = {theta:.6g} rad/position)</source>
        <translation>जोड़ी {pair} हर {wavelength:,.1f} पोज़िशन्स में एक बार घूमती है (θ = {theta:.6g} rad/पोज़िशन)</translation>
    </message>
    <message>
        <source>{turns:,.2f} turns</source>
        <translation>{turns:,.2f} चक्कर</translation>
    </message>
    <message>
        <source>&lt;b&gt;Relative&lt;/b&gt; (pair {pair}): (m−n)·θ&lt;sub&gt;{pair}&lt;/sub&gt; = {distance}·{theta:.4g} → {angle:+.1f}° between k and q, whatever the shift. Pair q·k = {pair_dot:+.4f}; full q·k at ({m}, {n}) = {dot:+.5f}, at ({m}+{p:,.0f}, {n}+{p:,.0f}) = {shifted:+.5f}.</source>
        <translation>&lt;b&gt;रिलेटिव&lt;/b&gt; (जोड़ी {pair}): (m−n)·θ&lt;sub&gt;{pair}&lt;/sub&gt; = {distance}·{theta:.4g} → k और q के बीच {angle:+.1f}°, खिसकाव चाहे जितना हो। जोड़ी का q·k = {pair_dot:+.4f}; ({m}, {n}) पर पूरा q·k = {dot:+.5f}, ({m}+{p:,.0f}, {n}+{p:,.0f}) पर = {shifted:+.5f}।</translation>
    </message>
    <message>
        <source> (= |x| × attention factor {factor:.4g})</source>
        <translation> (= |x| × अटेंशन फ़ैक्टर {factor:.4g})</translation>
    </message>
    <message>
        <source> (unchanged)</source>
        <translation> (अपरिवर्तित)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Additive vs rotary&lt;/b&gt; at position {p:,.0f}: |x| = {norm:.3f}; |x + PE| = {added:.3f} (length changed by {change:+.3f}, pair {pair} turned {turn_added:+.1f}°); |R·x| = {rotated:.3f}{kept}, pair {pair} turned {turn_rotated:+.1f}°.</source>
        <translation>पोज़िशन {p:,.0f} पर &lt;b&gt;जोड़ना बनाम घुमाना&lt;/b&gt;: |x| = {norm:.3f}; |x + PE| = {added:.3f} (लंबाई {change:+.3f} बदली, जोड़ी {pair} {turn_added:+.1f}° घूमी); |R·x| = {rotated:.3f}{kept}, जोड़ी {pair} {turn_rotated:+.1f}° घूमी।</translation>
    </message>
    <message>
        <source> with {kind} scaling ×{factor:g}</source>
        <translation> {kind} स्केलिंग ×{factor:g} के साथ</translation>
    </message>
    <message>
        <source>i and i + {half}</source>
        <translation>i और i + {half}</translation>
    </message>
    <message>
        <source>2i and 2i + 1</source>
        <translation>2i और 2i + 1</translation>
    </message>
    <message>
        <source>RoPE{scaling}, {pairs} pairs, base {base:g}: top, the query&apos;s pairs from fastest to slowest, turned by position·θ_i (trail: the last {trail} frames) — fast pairs spin, slow ones barely move. Bottom left: q and k turn together under a shared shift, so their angle and q·k stay fixed (dashed: no shift). Bottom right: adding a sinusoid changes a vector&apos;s length and direction; RoPE only turns it. A pair is dimensions {pairing} ({layout} layout); example vectors are random with a fixed seed.</source>
        <translation>RoPE{scaling}, {pairs} जोड़ियाँ, बेस {base:g}: ऊपर, क्वेरी की जोड़ियाँ सबसे तेज़ से सबसे धीमी तक, पोज़िशन·θ_i जितनी घुमाई गईं (निशान: पिछले {trail} फ़्रेम) — तेज़ जोड़ियाँ चक्कर लगाती हैं, धीमी मुश्किल से हिलती हैं। नीचे बाएँ: साझा खिसकाव में q और k साथ घूमते हैं, इसलिए उनका कोण और q·k वही रहते हैं (डैश वाली रेखा: बिना खिसकाव)। नीचे दाएँ: साइनुसॉइड जोड़ने से वेक्टर की लंबाई और दिशा बदलती है; RoPE उसे केवल घुमाता है। एक जोड़ी डायमेंशन्स {pairing} है ({layout} लेआउट); उदाहरण वेक्टर तय सीड से रैंडम हैं।</translation>
    </message>
    <message>
        <source>pair {pair}: θ = {theta:.6g} rad/position, wavelength {wavelength:,.1f} positions; at position {position:,} it has turned {degrees:,.1f}° ({turns:,.2f} turns)</source>
        <translation>जोड़ी {pair}: θ = {theta:.6g} rad/पोज़िशन, वेवलेंथ {wavelength:,.1f} पोज़िशन्स; पोज़िशन {position:,} तक यह {degrees:,.1f}° घूम चुकी है ({turns:,.2f} चक्कर)</translation>
    </message>
    <message>
        <source>({x:+.3f}, {y:+.3f}), radius {radius:.3f}, heading {heading:+.1f}° — angle between q and k {angle:+.2f}°, pair q·k {pair_dot:+.4f}</source>
        <translation>({x:+.3f}, {y:+.3f}), त्रिज्या {radius:.3f}, दिशा {heading:+.1f}° — q और k के बीच कोण {angle:+.2f}°, जोड़ी का q·k {pair_dot:+.4f}</translation>
    </message>
    <message>
        <source>({x:+.3f}, {y:+.3f}), radius {radius:.3f} — full vectors: |x| {norm:.4f}, |x + PE| {added:.4f}, |R·x| {rotated:.4f}</source>
        <translation>({x:+.3f}, {y:+.3f}), त्रिज्या {radius:.3f} — पूरे वेक्टर: |x| {norm:.4f}, |x + PE| {added:.4f}, |R·x| {rotated:.4f}</translation>
    </message>
    <message>
        <source>RoPE rotations — position {position:,}</source>
        <translation>RoPE रोटेशन — पोज़िशन {position:,}</translation>
    </message>
</context>
<context>
    <name>Spectrum</name>
    <message>
        <source>Unscaled RoPE: {pairs} pairs, base {base:g}</source>
        <translation>बिना स्केलिंग का RoPE: {pairs} जोड़ियाँ, बेस {base:g}</translation>
    </message>
    <message>
        <source>{kind} ×{factor:g}: {kept} kept, {blended} blended, {divided} divided by {factor:g}</source>
        <translation>{kind} ×{factor:g}: {kept} वैसी ही रखी गईं, {blended} मिलाई गईं, {divided} को {factor:g} से भाग दिया गया</translation>
    </message>
    <message>
        <source>; within the original {n:,} positions the fastest pair turns {turns:,.0f} times and 1 pair never completes a turn</source>
        <translation>; मूल {n:,} पोज़िशन्स में सबसे तेज़ जोड़ी {turns:,.0f} बार घूमती है और 1 जोड़ी एक भी चक्कर पूरा नहीं करती</translation>
    </message>
    <message>
        <source>; within the original {n:,} positions the fastest pair turns {turns:,.0f} times and {slow} pairs never complete a turn</source>
        <translation>; मूल {n:,} पोज़िशन्स में सबसे तेज़ जोड़ी {turns:,.0f} बार घूमती है और {slow} जोड़ियाँ एक भी चक्कर पूरा नहीं करतीं</translation>
    </message>
    <message>
        <source>; cos/sin × {factor:.4g} (logits × {square:.4g})</source>
        <translation>; cos/sin × {factor:.4g} (लॉजिट्स × {square:.4g})</translation>
    </message>
    <message>
        <source>.</source>
        <translation>।</translation>
    </message>
    <message>
        <source>1 pair</source>
        <translation>1 जोड़ी</translation>
    </message>
    <message>
        <source>{n} pairs</source>
        <translation>{n} जोड़ियाँ</translation>
    </message>
    <message>
        <source>keep</source>
        <extracomment>what each kind of pair is called in legends and read-outs</extracomment>
        <translation>वैसी ही</translation>
    </message>
    <message>
        <source>blend</source>
        <translation>मिलाई गई</translation>
    </message>
    <message>
        <source>divide</source>
        <translation>भाग दी गई</translation>
    </message>
    <message>
        <source>Load config.json…</source>
        <translation>config.json लोड करें…</translation>
    </message>
    <message>
        <source>Fill the RoPE settings from a Hugging Face model&apos;s config.json</source>
        <translation>Hugging Face मॉडल के config.json से RoPE सेटिंग्स भरें</translation>
    </message>
    <message>
        <source>Scaling</source>
        <translation>स्केलिंग</translation>
    </message>
    <message>
        <source>factor</source>
        <translation>फ़ैक्टर</translation>
    </message>
    <message>
        <source>before scaling</source>
        <translation>स्केलिंग से पहले</translation>
    </message>
    <message>
        <source>after scaling</source>
        <translation>स्केलिंग के बाद</translation>
    </message>
    <message>
        <source>scale at the extended length</source>
        <translation>बढ़ाई गई लंबाई पर स्केल</translation>
    </message>
    <message>
        <source>without scaling</source>
        <translation>बिना स्केलिंग</translation>
    </message>
    <message>
        <source>with scaling</source>
        <translation>स्केलिंग के साथ</translation>
    </message>
    <message>
        <source>Hover over a plot for the numbers of a pair or a distance; click a pair to see it turn in the rotation view.</source>
        <translation>किसी जोड़ी या दूरी की संख्याओं के लिए प्लॉट पर पॉइंटर रखें; रोटेशन दृश्य में जोड़ी को घूमते देखने के लिए उस पर क्लिक करें।</translation>
    </message>
    <message>
        <source>pair i (fast → slow)</source>
        <translation>जोड़ी i (तेज़ → धीमी)</translation>
    </message>
    <message>
        <source>wavelength</source>
        <translation>वेवलेंथ</translation>
    </message>
    <message>
        <source>pair i</source>
        <translation>जोड़ी i</translation>
    </message>
    <message>
        <source>stretch ×</source>
        <translation>खिंचाव ×</translation>
    </message>
    <message>
        <source>relative distance m − n (positions)</source>
        <translation>रिलेटिव दूरी m − n (पोज़िशन्स)</translation>
    </message>
    <message>
        <source>|q·k| bound</source>
        <translation>|q·k| सीमा</translation>
    </message>
    <message>
        <source>Load a model&apos;s config.json</source>
        <translation>मॉडल का config.json लोड करें</translation>
    </message>
    <message>
        <source>Model config (config.json *.json);;All files (*)</source>
        <translation>मॉडल कॉन्फ़िग (config.json *.json);;सभी फ़ाइलें (*)</translation>
    </message>
    <message>
        <source>Loaded RoPE settings from {path}</source>
        <translation>{path} से RoPE सेटिंग्स लोड की गईं</translation>
    </message>
    <message>
        <source>Could not load {path}: {message}</source>
        <translation>{path} लोड नहीं हो सका: {message}</translation>
    </message>
    <message>
        <source> The previous settings are kept.</source>
        <translation> पिछली सेटिंग्स बनी रहेंगी।</translation>
    </message>
    <message>
        <source>original context {n:,}</source>
        <translation>मूल कॉन्टेक्स्ट {n:,}</translation>
    </message>
    <message>
        <source>extended context {n:,}</source>
        <translation>बढ़ाया गया कॉन्टेक्स्ट {n:,}</translation>
    </message>
    <message>
        <source>Llama-3 blend band: wavelengths {lo:,.0f} … {hi:,.0f}</source>
        <translation>Llama-3 मिश्रण बैंड: वेवलेंथ {lo:,.0f} … {hi:,.0f}</translation>
    </message>
    <message>
        <source>YaRN ramp: pairs {lo:g} … {hi:g}</source>
        <translation>YaRN रैंप: जोड़ियाँ {lo:g} … {hi:g}</translation>
    </message>
    <message>
        <source>LongRoPE short factors</source>
        <translation>LongRoPE छोटे फ़ैक्टर</translation>
    </message>
    <message>
        <source>LongRoPE long factors</source>
        <translation>LongRoPE लंबे फ़ैक्टर</translation>
    </message>
    <message>
        <source>factor {factor:g}</source>
        <translation>फ़ैक्टर {factor:g}</translation>
    </message>
    <message>
        <source>How much each pair&apos;s wavelength is stretched (LongRoPE factors shaded)</source>
        <translation>हर जोड़ी की वेवलेंथ कितनी खींची गई (LongRoPE फ़ैक्टर छायांकित)</translation>
    </message>
    <message>
        <source>How much each pair&apos;s wavelength is stretched</source>
        <translation>हर जोड़ी की वेवलेंथ कितनी खींची गई</translation>
    </message>
    <message>
        <source>RoFormer long-term decay bound (dim {dim}, base {base:g})</source>
        <translation>RoFormer लंबी दूरी की क्षय सीमा (डायमेंशन {dim}, बेस {base:g})</translation>
    </message>
    <message>
        <source> · attention factor {factor:.4g} (logits × {square:.4g})</source>
        <translation> · अटेंशन फ़ैक्टर {factor:.4g} (लॉजिट्स × {square:.4g})</translation>
    </message>
    <message>
        <source>Wavelength per pair, {kind}{extra}</source>
        <translation>हर जोड़ी की वेवलेंथ, {kind}{extra}</translation>
    </message>
    <message>
        <source> Grey dashed: wavelengths before scaling; blue: after (for dynamic and LongRoPE, at the extended length). A pair whose wavelength exceeds the original context line never completed a turn in training.</source>
        <translation> धूसर डैश: स्केलिंग से पहले की वेवलेंथ; नीली: बाद की (डायनेमिक और LongRoPE के लिए बढ़ाई गई लंबाई पर)। जिस जोड़ी की वेवलेंथ मूल कॉन्टेक्स्ट की रेखा से अधिक है, उसने ट्रेनिंग में कभी एक चक्कर पूरा नहीं किया।</translation>
    </message>
    <message>
        <source> From config.json: </source>
        <translation> config.json से: </translation>
    </message>
    <message>
        <source>distance {distance:,.0f}: bound {before:.3f} without scaling, {after:.3f} with {kind} (at distance 0 both are {start:.1f})</source>
        <translation>दूरी {distance:,.0f}: सीमा बिना स्केलिंग {before:.3f}, {kind} के साथ {after:.3f} (दूरी 0 पर दोनों {start:.1f} हैं)</translation>
    </message>
    <message>
        <source> — shown in the rotation view.</source>
        <translation> — रोटेशन दृश्य में दिखाई गई।</translation>
    </message>
    <message>
        <source>pair {pair}: wavelength {before:,.1f} → {after:,.1f} positions (×{ratio:.3g}, {kind}); turns {turns:,.2f} times in the original {trained:,} positions, {turns_extended:,.2f} times in the extended {extended:,}</source>
        <translation>जोड़ी {pair}: वेवलेंथ {before:,.1f} → {after:,.1f} पोज़िशन्स (×{ratio:.3g}, {kind}); मूल {trained:,} पोज़िशन्स में {turns:,.2f} बार घूमती है, बढ़ाई गई {extended:,} में {turns_extended:,.2f} बार</translation>
    </message>
    <message>
        <source>RoPE spectrum — {kind}</source>
        <translation>RoPE स्पेक्ट्रम — {kind}</translation>
    </message>
</context>
<context>
    <name>Temperature</name>
    <message>
        <source>{key} in the config is {value}, not a number.</source>
        <translation>कॉन्फ़िग में {key} {value} है, संख्या नहीं।</translation>
    </message>
    <message>
        <source>the config&apos;s floor_scale must be positive and attn_scale between 0 and 100.</source>
        <translation>कॉन्फ़िग का floor_scale धनात्मक और attn_scale 0 और 100 के बीच होना चाहिए।</translation>
    </message>
    <message>
        <source>no_rope_layers in the config is not a list of 0 and 1.</source>
        <translation>कॉन्फ़िग में no_rope_layers 0 और 1 की सूची नहीं है।</translation>
    </message>
    <message>
        <source>Llama 4&apos;s defaults</source>
        <translation>Llama 4 के डिफ़ॉल्ट मान</translation>
    </message>
    <message>
        <source>positions must be between 1 and 10,000,000.</source>
        <translation>पोज़िशन्स 1 और 10,000,000 के बीच होनी चाहिए।</translation>
    </message>
    <message>
        <source>Over the last eighth of the {n} positions the temperature lowers this layer&apos;s attention entropy from {without:.2f} to {with_:.2f} nats (uniform over all keys: {uniform:.2f}).</source>
        <translation>{n} पोज़िशन्स के अंतिम आठवें हिस्से पर टेम्परेचर इस लेयर की अटेंशन एन्ट्रॉपी को {without:.2f} से {with_:.2f} nats तक घटाता है (सभी कीज़ पर एकसमान: {uniform:.2f})।</translation>
    </message>
    <message>
        <source>The scale is 1 at all {n} positions here (it first rises at position {step} = floor_scale − 1), so both curves are the same: the temperature does not act on a text this short.</source>
        <translation>यहाँ सभी {n} पोज़िशन्स पर स्केल 1 है (यह पहली बार पोज़िशन {step} = floor_scale − 1 पर बढ़ता है), इसलिए दोनों वक्र एक ही हैं: इतने छोटे टेक्स्ट पर टेम्परेचर असर नहीं करता।</translation>
    </message>
    <message>
        <source>Up to position {before} the scale is 1 and both curves are the same; from position {step} on (floor_scale − 1) the scale lowers the entropy at {lowered} of {total} positions, by {mean} nats on average (at most {top}).</source>
        <translation>पोज़िशन {before} तक स्केल 1 है और दोनों वक्र एक ही हैं; पोज़िशन {step} (floor_scale − 1) से आगे स्केल {total} में से {lowered} पोज़िशन्स पर एन्ट्रॉपी घटाता है, औसतन {mean} नैट (अधिकतम {top})।</translation>
    </message>
    <message>
        <source>The scale is above 1 from position 0 on: it lowers the entropy at {lowered} of {total} positions, by {mean} nats on average (at most {top}).</source>
        <translation>पोज़िशन 0 से ही स्केल 1 से ऊपर है: यह {total} में से {lowered} पोज़िशन्स पर एन्ट्रॉपी घटाता है, औसतन {mean} नैट (अधिकतम {top})।</translation>
    </message>
    <message>
        <source>Past the training length ({trained} tokens): lowered at {lowered} of {total} positions, by {mean} nats on average.</source>
        <translation>ट्रेनिंग की लंबाई ({trained} टोकन्स) के बाद: {total} में से {lowered} पोज़िशन्स पर घटी, औसतन {mean} नैट।</translation>
    </message>
    <message>
        <source>This run&apos;s {n} tokens stay within the training length ({trained}): nothing here is past it.</source>
        <translation>इस रन के {n} टोकन्स ट्रेनिंग की लंबाई ({trained}) के भीतर ही हैं: यहाँ कुछ भी उसके बाद का नहीं है।</translation>
    </message>
    <message>
        <source>seeded random q, k</source>
        <translation>सीड किए गए रैंडम q, k</translation>
    </message>
</context>
<context>
    <name>TimeSeries</name>
    <message>
        <source>Sinusoidal over real time</source>
        <extracomment>Units a plain-number timestamp can be in; the ``unix_*`` ones also allow calendar cycles. Units of elapsed time τ (one unit = one &quot;position&quot; of the sinusoid).</extracomment>
        <translation>असली समय पर साइनुसॉइडल</translation>
    </message>
    <message>
        <source>Calendar cycles</source>
        <translation>कैलेंडर चक्र</translation>
    </message>
    <message>
        <source>Time2Vec (seeded)</source>
        <translation>Time2Vec (सीड वाला)</translation>
    </message>
    <message>
        <source>hour sin</source>
        <translation>घंटा sin</translation>
    </message>
    <message>
        <source>hour cos</source>
        <translation>घंटा cos</translation>
    </message>
    <message>
        <source>weekday sin</source>
        <translation>सप्ताह-दिन sin</translation>
    </message>
    <message>
        <source>weekday cos</source>
        <translation>सप्ताह-दिन cos</translation>
    </message>
    <message>
        <source>day-of-year sin</source>
        <translation>वर्ष-दिन sin</translation>
    </message>
    <message>
        <source>day-of-year cos</source>
        <translation>वर्ष-दिन cos</translation>
    </message>
    <message>
        <source>line {line}: {reason}</source>
        <translation>पंक्ति {line}: {reason}</translation>
    </message>
    <message>
        <source>no bad rows</source>
        <translation>कोई ख़राब पंक्ति नहीं</translation>
    </message>
    <message>
        <source>1 bad row skipped:</source>
        <translation>1 ख़राब पंक्ति छोड़ी गई:</translation>
    </message>
    <message>
        <source>{n} bad rows skipped:</source>
        <translation>{n} ख़राब पंक्तियाँ छोड़ी गईं:</translation>
    </message>
    <message>
        <source>
… and {n} more</source>
        <translation>
… और {n} अन्य</translation>
    </message>
    <message>
        <source>empty timestamp</source>
        <translation>खाली टाइमस्टैम्प</translation>
    </message>
    <message>
        <source>timestamp {text} is not a finite number</source>
        <translation>टाइमस्टैम्प {text} कोई सीमित संख्या नहीं है</translation>
    </message>
    <message>
        <source>{text} is neither a number nor an ISO 8601 date/time</source>
        <translation>{text} न कोई संख्या है, न ISO 8601 तारीख़/समय</translation>
    </message>
    <message>
        <source>has 1 field; expected at least {need} to reach column {column}</source>
        <translation>इसमें 1 फ़ील्ड है; कॉलम {column} तक पहुँचने के लिए कम से कम {need} चाहिए</translation>
    </message>
    <message>
        <source>has {n} fields; expected at least {need} to reach column {column}</source>
        <translation>इसमें {n} फ़ील्ड हैं; कॉलम {column} तक पहुँचने के लिए कम से कम {need} चाहिए</translation>
    </message>
    <message>
        <source>{stamp} as {unit} is outside the years 1–9999 (is the unit right? milliseconds are unix_ms)</source>
        <translation>{unit} के रूप में {stamp} वर्ष 1–9999 के बाहर है (क्या इकाई सही है? मिलीसेकंड के लिए unix_ms चुनें)</translation>
    </message>
    <message>
        <source>value {value} in {column} is not a finite number</source>
        <translation>{column} में मान {value} कोई सीमित संख्या नहीं है</translation>
    </message>
    <message>
        <source>a number in a column of dates</source>
        <translation>तारीख़ों के कॉलम में एक संख्या</translation>
    </message>
    <message>
        <source>a date in a column of numbers</source>
        <translation>संख्याओं के कॉलम में एक तारीख़</translation>
    </message>
    <message>
        <source>periodic {i}</source>
        <translation>आवर्ती {i}</translation>
    </message>
    <message>
        <source>linear</source>
        <translation>लीनियर</translation>
    </message>
    <message>
        <source>seconds</source>
        <extracomment>the time units as captions say them (&quot;3 hours&quot;)</extracomment>
        <translation>सेकंड</translation>
    </message>
    <message>
        <source>minutes</source>
        <translation>मिनट</translation>
    </message>
    <message>
        <source>hours</source>
        <translation>घंटे</translation>
    </message>
    <message>
        <source>days</source>
        <translation>दिन</translation>
    </message>
    <message>
        <source>gaps from {shortest} to {longest}</source>
        <translation>अंतराल {shortest} से {longest} तक</translation>
    </message>
    <message>
        <source>a single sample</source>
        <translation>केवल एक सैंपल</translation>
    </message>
    <message>
        <source>the sinusoid (d_model {d}, base {base:g}) evaluated at the real elapsed time in {unit}, so an irregular gap shifts the phase by exactly its length</source>
        <translation>साइनुसॉइड (d_model {d}, बेस {base:g}) बीते हुए असली समय ({unit} में) पर निकाला गया, इसलिए अनियमित अंतराल फ़ेज़ को ठीक अपनी लंबाई जितना खिसकाता है</translation>
    </message>
    <message>
        <source>hour of day, day of week and day of year (UTC) as sin/cos pairs: cycles wrap, so 23:00 is next to 00:00 and Sunday next to Monday</source>
        <translation>दिन का घंटा, सप्ताह का दिन और वर्ष का दिन (UTC) sin/cos जोड़ियों के रूप में: चक्र घूमकर लौटते हैं, इसलिए 23:00, 00:00 के पास है और रविवार, सोमवार के पास</translation>
    </message>
    <message>
        <source>Time2Vec-style: 1 linear + {periodic} periodic features with seeded (not learned) frequencies, seed {seed}; the linear term makes similarity depend on when, not only on the gap</source>
        <translation>Time2Vec जैसा: 1 लीनियर + {periodic} आवर्ती फ़ीचर्स, सीड वाली (लर्न नहीं की गई) फ़्रीक्वेंसीज़ के साथ, सीड {seed}; लीनियर पद के कारण समानता केवल अंतराल पर नहीं, समय पर भी निर्भर करती है</translation>
    </message>
    <message>
        <source>; 1 bad row reported, not used</source>
        <translation>; 1 ख़राब पंक्ति बताई गई, उपयोग नहीं हुई</translation>
    </message>
    <message>
        <source>; {n} bad rows reported, not used</source>
        <translation>; {n} ख़राब पंक्तियाँ बताई गईं, उपयोग नहीं हुईं</translation>
    </message>
    <message>
        <source>{n:,} samples over {span}, </source>
        <translation>{span} में {n:,} सैंपल्स, </translation>
    </message>
    <message>
        <source>{source}, column {column}: {extent}{irregular}{bad}. Encoding: {what}. Samples {a} and {b} are {gap} apart, cosine similarity {similarity:.3f}.</source>
        <translation>{source}, कॉलम {column}: {extent}{irregular}{bad}। एनकोडिंग: {what}। सैंपल {a} और {b} के बीच {gap} का अंतर है, कोसाइन समानता {similarity:.3f}।</translation>
    </message>
    <message>
        <source>Open CSV…</source>
        <translation>CSV खोलें…</translation>
    </message>
    <message>
        <source>Read your own series: a CSV with a header row and a timestamp column (ISO 8601 dates or numbers). Dropping a .csv file on this panel works too.</source>
        <translation>अपनी सीरीज़ पढ़ें: हेडर पंक्ति और टाइमस्टैम्प कॉलम वाली CSV (ISO 8601 तारीख़ें या संख्याएँ)। इस पैनल पर CSV फ़ाइल छोड़ने से भी काम होता है।</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>सैंपल</translation>
    </message>
    <message>
        <source>Back to the built-in sensor sample (hourly readings with missing hours)</source>
        <translation>अंतर्निहित सेंसर सैंपल पर लौटें (घंटेवार रीडिंग्स, कुछ घंटे ग़ायब)</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>डेटा</translation>
    </message>
    <message>
        <source>cosine similarity</source>
        <translation>कोसाइन समानता</translation>
    </message>
    <message>
        <source>Rows of the file that could not be used, with the reason (not silently dropped)</source>
        <translation>फ़ाइल की वे पंक्तियाँ जिनका उपयोग नहीं हो सका, कारण सहित (चुपचाप हटाई नहीं गईं)</translation>
    </message>
    <message>
        <source>Hover over a plot for its numbers.</source>
        <translation>संख्याओं के लिए किसी प्लॉट पर पॉइंटर रखें।</translation>
    </message>
    <message>
        <source>Open a time series</source>
        <translation>टाइम सीरीज़ खोलें</translation>
    </message>
    <message>
        <source>CSV files (*.csv *.txt);;All files (*)</source>
        <translation>CSV फ़ाइलें (*.csv *.txt);;सभी फ़ाइलें (*)</translation>
    </message>
    <message>
        <source>built-in sample: {name} (hourly sensor readings, missing hours, two corrupt rows)</source>
        <translation>अंतर्निहित सैंपल: {name} (घंटेवार सेंसर रीडिंग्स, कुछ घंटे ग़ायब, दो ख़राब पंक्तियाँ)</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(कोई नहीं)</translation>
    </message>
    <message>
        <source>{unit} since {origin}</source>
        <translation>{origin} से {unit}</translation>
    </message>
    <message>
        <source>samples</source>
        <translation>सैंपल्स</translation>
    </message>
    <message>
        <source>{source}: {n:,} samples</source>
        <translation>{source}: {n:,} सैंपल्स</translation>
    </message>
    <message>
        <source>encoding column</source>
        <translation>एनकोडिंग कॉलम</translation>
    </message>
    <message>
        <source>gap ({unit})</source>
        <translation>अंतराल ({unit})</translation>
    </message>
    <message>
        <source>similarity vs gap</source>
        <translation>समानता बनाम अंतराल</translation>
    </message>
    <message>
        <source>No bad rows: every data row was used.</source>
        <translation>कोई ख़राब पंक्ति नहीं: डेटा की हर पंक्ति का उपयोग हुआ।</translation>
    </message>
    <message>
        <source> Rows were not in time order; they are shown sorted.</source>
        <translation> पंक्तियाँ समय के क्रम में नहीं थीं; उन्हें क्रम से लगाकर दिखाया गया है।</translation>
    </message>
    <message>
        <source> Curve: from sample {a} onwards; dots: random pairs of real samples; ring: the two chosen samples.</source>
        <translation> वक्र: सैंपल {a} से आगे; बिंदु: असली सैंपल्स की रैंडम जोड़ियाँ; छल्ला: चुने गए दो सैंपल।</translation>
    </message>
    <message>
        <source>gap {gap:,.3f} {unit}: similarity {similarity:+.4f} (from sample {a})</source>
        <translation>अंतराल {gap:,.3f} {unit}: समानता {similarity:+.4f} (सैंपल {a} से)</translation>
    </message>
    <message>
        <source>sample {i} (line {line}), {time} = {tau:,.3f} {unit}{value}</source>
        <translation>सैंपल {i} (पंक्ति {line}), {time} = {tau:,.3f} {unit}{value}</translation>
    </message>
    <message>
        <source>{tau:,.2f} {unit}: no sample here (a gap in the data)</source>
        <translation>{tau:,.2f} {unit}: यहाँ कोई सैंपल नहीं (डेटा में अंतराल)</translation>
    </message>
    <message>
        <source>sample {i}, {time} ({tau:,.3f} {unit}), {column}: {value:+.4f}</source>
        <translation>सैंपल {i}, {time} ({tau:,.3f} {unit}), {column}: {value:+.4f}</translation>
    </message>
    <message>
        <source>Time series — {source}, {encoding}</source>
        <translation>टाइम सीरीज़ — {source}, {encoding}</translation>
    </message>
</context>
</TS>
