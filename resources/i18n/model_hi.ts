<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="hi">
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
