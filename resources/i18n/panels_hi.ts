<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="hi">
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
</context>
</TS>
