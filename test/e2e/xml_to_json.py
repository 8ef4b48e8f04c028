#!/usr/bin/env python3
"""Reads an XML file with Python's own parser (which rejects a document that is not
well-formed XML 1.0) and prints it as JSON: each element as
{"tag": ..., "attrib": {...}, "text": ..., "children": [...]}. Exit 1 if it does not parse."""
import json
import sys
import xml.etree.ElementTree as ET


def element(e):
    return {"tag": e.tag, "attrib": dict(e.attrib), "text": e.text or "",
            "children": [element(c) for c in e]}


try:
    root = ET.parse(sys.argv[1]).getroot()
except (ET.ParseError, OSError) as err:
    print(f"{sys.argv[1]}: {err}", file=sys.stderr)
    sys.exit(1)
print(json.dumps(element(root)))
