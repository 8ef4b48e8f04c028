#!/usr/bin/env python3
"""Prints the shell commands of one of docs/ci.md's CI examples, as the CI system would run
them: ci_recipes.py docs/ci.md github (every step's `run`) or gitlab (the job's `script`)."""
import re
import sys

import yaml

text = open(sys.argv[1], encoding="utf-8").read()
found = False
for block in re.findall(r"```yaml\n(.*?)```", text, re.S):
    doc = yaml.safe_load(block)
    if sys.argv[2] == "github" and "jobs" in doc:
        for job in doc["jobs"].values():
            for step in job["steps"]:
                if "run" in step:
                    print(step["run"])
                    found = True
    if sys.argv[2] == "gitlab" and "jobs" not in doc:
        for job in doc.values():
            if isinstance(job, dict) and "script" in job:
                print("\n".join(job["script"]))
                found = True
sys.exit(0 if found else f"no {sys.argv[2]} example in {sys.argv[1]}")
