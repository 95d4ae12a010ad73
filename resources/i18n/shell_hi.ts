<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="hi">
<context>
    <name>Forms</name>
    <message>
        <source>Range {low} … {high}.</source>
        <translation>सीमा {low} … {high}.</translation>
    </message>
</context>
<context>
    <name>Panels</name>
    <message>
        <source>Checkpoint</source>
        <translation>चेकपॉइंट</translation>
    </message>
</context>
</TS>
