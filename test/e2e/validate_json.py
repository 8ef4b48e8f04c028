#!/usr/bin/env python3
"""Validates a JSON file against a JSON Schema (draft 7) with python3-jsonschema, with format
checks on: validate_json.py SCHEMA FILE. Prints each violation with its path in the document
and exits 1 if there is any, 2 if the schema itself is not a valid draft-7 schema."""
import json
import sys

import jsonschema

with open(sys.argv[1], encoding="utf-8") as f:
    schema = json.load(f)
try:
    jsonschema.Draft7Validator.check_schema(schema)
except jsonschema.SchemaError as err:
    print(f"{sys.argv[1]}: not a draft-7 schema: {err.message}", file=sys.stderr)
    sys.exit(2)
try:
    with open(sys.argv[2], encoding="utf-8") as f:
        document = json.load(f)
except (OSError, ValueError) as err:
    print(f"{sys.argv[2]}: {err}", file=sys.stderr)
    sys.exit(1)
validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
for e in errors:
    where = "/".join(str(p) for p in e.absolute_path) or "(document)"
    print(f"{sys.argv[2]}: {where}: {e.message}", file=sys.stderr)
sys.exit(1 if errors else 0)
