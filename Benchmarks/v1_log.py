#!/usr/bin/env python3
"""Writes the v1 twin of a log whose lines are v2 or v1 (Benchmarks/upcast.sh).

    python3 Benchmarks/v1_log.py LOG_V2 LOG_V1

Every `sample.ingested` line of version 2 becomes the line the encoder wrote
before version 2 for the same event: `"v":1`, and an hrv sample's `measure`
member dropped, then sealed again (CRC-32 of the bytes before `,"crc":"`).
Refuses a line whose stored measure is not the one the source rule gives back
(the v1 line would mean another measure). Other lines are copied as they are.
"""
import re, sys, zlib

RULE = re.compile(rb"oura|whoop", re.IGNORECASE)
MEASURE = re.compile(rb',"measure":"(sdnn|rmssd)"')
SOURCE = re.compile(rb'"source":"((?:[^"\\]|\\.)*)"')

source_path, target_path = sys.argv[1], sys.argv[2]
with open(source_path, "rb") as source, open(target_path + ".tmp", "wb") as target:
    for number, line in enumerate(source, 1):
        if not line.startswith(b'{"v":2,') or b'"type":"sample.ingested"' not in line[:120]:
            target.write(line)
            continue
        payload = line[:line.rindex(b',"crc":"')]
        found = MEASURE.search(payload)
        if found:
            source_name = SOURCE.search(payload, found.end()).group(1)
            rule = b"rmssd" if RULE.search(source_name) else b"sdnn"
            if found.group(1) != rule:
                sys.exit(f"line {number}: measure {found.group(1).decode()} is not the source rule's; no v1 line means it")
            payload = payload[:found.start()] + payload[found.end():]
        payload = b'{"v":1,' + payload[len(b'{"v":2,'):]
        target.write(payload + b',"crc":"%08x"}\n' % zlib.crc32(payload))
import os
os.replace(target_path + ".tmp", target_path)
