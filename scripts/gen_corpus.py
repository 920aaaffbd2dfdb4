#!/usr/bin/env python3
"""Writes a synthetic prompt library for scripts/bench.sh: the same files for the
same arguments, on any machine.

usage: scripts/gen_corpus.py --out DIR [--payloads N] [--seed S] [--defects RATE]
                             [--per-file K]

Files of K payloads each take turns through five kinds:
  code/*.silp         SILP code-frontend payloads, one a line
  wire/*.slip         Slipstream SLIP v1 messages, one a line
  ir/*.silp.json      an indented JSON array of IR documents
  ir/*.silp.jsonl     one IR document a line
  docs/*.md           a page of fenced silp and slip blocks, ten payloads a block
Code payloads are written as agents write them, not only as the reference prints
them: some call a verb with a second positional argument (SL405) or drop the `:`
after `else` (SL505). A fraction RATE of payloads carries one planted defect:
  text payloads  a zero-width space (SL201), a Cyrillic look-alike `а` (SL202), an
                 unknown name `delete(` (SL101) in code, a reversed anchor (SL601)
                 in SLIP, or tag characters (SL204)
  IR documents   a malformed req_id (SL301), an unknown root field (SL401) or the
                 unknown intent `!DELETE`
The last line printed counts payloads, files, bytes and each kind of defect.
"""
import argparse
import json
import random
from collections import Counter
from pathlib import Path

VERBS = ("cancel", "start", "email", "fetch", "process", "translate", "book",
         "route", "search", "update", "suggest", "switch", "notify")
ANCHORS = ("RequestTask", "RequestPlan", "RequestReview", "RequestHelp",
           "RequestCancel", "RequestResource", "InformComplete", "InformProgress",
           "InformBlocked", "InformStatus", "InformResult", "ProposePlan",
           "ProposeChange", "ProposeAlternative", "ProposeRollback", "EvalApprove",
           "EvalReject", "EvalNeedsWork", "EvalComplete", "Accept", "Reject",
           "MetaAck", "MetaHandoff", "MetaEscalate", "Fallback")
OBJECTS = ("flight", "hotel", "hike", "cards", "report", "invoice", "ticket",
           "backup", "profile", "order", "dataset", "oncall", "billing", "cabin",
           "summary", "build")
PLACES = ("Beijing", "Shanghai", "Paris", "indoor", "downtown", "Lyon", "Osaka")
AGENTS = ("alice", "bob", "planner", "executor", "reviewer", "author", "devops", "sre")
WEATHER = ("rain", "snow")
LIMITS = ("budget", "rating", "price", "queue")

# kind: (folder, file suffix)
KINDS = {
    "silp": ("code", "silp"),
    "slip": ("wire", "slip"),
    "json": ("ir", "silp.json"),
    "jsonl": ("ir", "silp.jsonl"),
    "md": ("docs", "md"),
}


class Corpus:
    def __init__(self, seed, defect_rate):
        self.rng = random.Random(seed)
        self.defect_rate = defect_rate
        self.planted = Counter()
        self.ir_count = 0

    # --- clean payloads -----------------------------------------------------------
    def value(self):
        obj = self.rng.choice(OBJECTS)
        return f"{obj}_{self.rng.randint(1, 999)}" if self.rng.random() < 0.4 else obj

    def when(self):
        return f"t+{self.rng.randint(1, 9)}{self.rng.choice(('', '', 'am', 'pm'))}"

    def condition(self):
        name = self.rng.choice(WEATHER + ("loc",) + LIMITS)
        if name in LIMITS:
            op = self.rng.choice(("<", "<=", ">", ">="))
            return f"{name}{op}{self.rng.randint(1, 900)}"
        if name == "loc":
            return f"loc(me,{self.rng.choice(PLACES)},{self.when()})"
        return f"!{name}({self.when()})"

    def code(self):
        args = [self.value()]
        if self.rng.random() < 0.3:
            args.append(self.when())
        if self.rng.random() < 0.25:
            args = [f"src={self.value()}", f"tgt={self.value()}"]
        calls = f"{self.rng.choice(VERBS)}({','.join(args)})"
        if self.rng.random() < 0.3:
            calls += f"; {self.rng.choice(VERBS)}({self.value()})"
        if self.rng.random() >= 0.3:
            return calls
        payload = f"if {self.condition()}: {calls}"
        if self.rng.random() < 0.5:
            payload += f" else start({self.rng.choice(OBJECTS)}@{self.rng.choice(PLACES)})"
        return payload

    def slip(self):
        anchor = self.rng.choice(ANCHORS)
        words = []
        if anchor == "Fallback":
            words = [self.rng.choice(OBJECTS) for _ in range(self.rng.randint(2, 8))]
        elif self.rng.random() < 0.5:
            words = [self.value()]
        src, dst = self.rng.choice(AGENTS), self.rng.choice(AGENTS)
        return " ".join(["SLIP", "v1", src, dst, anchor, *words])

    def ir(self):
        self.ir_count += 1
        intent = "!" + self.rng.choice(VERBS).upper()
        entities = [{"id": "act", "value": self.value(), "action": intent}]
        if self.rng.random() < 0.3:
            entities.append({"id": "time", "value": self.when(), "action": intent})
        constraints = []
        if self.rng.random() < 0.4:
            constraints.append({"type": self.rng.choice(("!rain", "loc", "!snow")),
                                "value": "true", "time": self.when()})
        alternatives = []
        if self.rng.random() < 0.2:
            alternatives.append({"action": "!START", "target": self.rng.choice(OBJECTS),
                                 "location": self.rng.choice(PLACES)})
        return {"silp": "v1", "intent": intent, "entities": entities,
                "constraints": constraints, "alternatives": alternatives,
                "meta": {"req_id": f"{self.ir_count:08x}",
                         "out": self.rng.choice(("code", "json"))}}

    # --- planted defects ----------------------------------------------------------
    def defective(self):
        return self.rng.random() < self.defect_rate

    def plant_in_text(self, text, language):
        pick = self.rng.randrange(4)
        if pick == 0:
            at = self.rng.randrange(1, len(text))
            self.planted["zero-width"] += 1
            return text[:at] + "\u200b" + text[at:]
        if pick == 1 and "a" in text:
            self.planted["look-alike"] += 1
            return text.replace("a", "\u0430", 1)
        if pick == 2 and language == "silp":
            # The first name before `(`: the verb, or a condition's predicate.
            verb = text.split("(")[0].split()[-1]
            self.planted["unknown-verb"] += 1
            return text.replace(verb + "(", "delete(", 1)
        if pick == 2 and language == "slip":
            fields = text.split(" ")
            fields[4] = fields[4][::-1]
            self.planted["unknown-anchor"] += 1
            return " ".join(fields)
        self.planted["tag-characters"] += 1
        return text + "\U000e0068\U000e0069"

    def plant_in_ir(self, document):
        pick = self.rng.randrange(3)
        if pick == 0:
            document["meta"]["req_id"] = document["meta"]["req_id"].upper() + "G"
            self.planted["bad-req-id"] += 1
        elif pick == 1:
            document["extra_root_field"] = True
            self.planted["unknown-field"] += 1
        else:
            document["intent"] = "!DELETE"
            self.planted["unknown-intent"] += 1
        return document

    def text_payload(self, language):
        defective = self.defective()
        text = self.code() if language == "silp" else self.slip()
        return self.plant_in_text(text, language) if defective else text

    def ir_payload(self):
        defective = self.defective()
        document = self.ir()
        return self.plant_in_ir(document) if defective else document

    # --- files --------------------------------------------------------------------
    def file_text(self, kind, count, number):
        if kind in ("silp", "slip"):
            return "".join(self.text_payload(kind) + "\n" for _ in range(count))
        if kind in ("json", "jsonl"):
            documents = [self.ir_payload() for _ in range(count)]
            if kind == "json":
                return json.dumps(documents, indent=2, ensure_ascii=False) + "\n"
            return "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in documents)
        # Markdown: each block of ten takes the language of its first payload.
        payloads = []
        for _ in range(count):
            language = self.rng.choice(("silp", "slip"))
            payloads.append((language, self.text_payload(language)))
        sections = [f"# Prompt page {number}\n"]
        for start in range(0, count, 10):
            block = payloads[start:start + 10]
            language = block[0][0]
            lines = "\n".join(text for lang, text in block if lang == language)
            sections.append(f"Step {start // 10 + 1} of the workflow.\n\n"
                            f"```{language}\n{lines}\n```\n")
        return "\n".join(sections)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--payloads", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--defects", type=float, default=0.02)
    parser.add_argument("--per-file", type=int, default=200)
    args = parser.parse_args()

    corpus = Corpus(args.seed, args.defects)
    kinds = list(KINDS)
    written = files = total_bytes = 0
    while written < args.payloads:
        kind = kinds[files % len(kinds)]
        count = min(args.per_file, args.payloads - written)
        folder, suffix = KINDS[kind]
        path = args.out / folder / f"{folder}_{files:05d}.{suffix}"
        path.parent.mkdir(parents=True, exist_ok=True)
        data = corpus.file_text(kind, count, files).encode("utf-8")
        path.write_bytes(data)
        written += count
        files += 1
        total_bytes += len(data)
    defects = ", ".join(f"{name} {n}" for name, n in sorted(corpus.planted.items()))
    print(f"payloads {written} files {files} bytes {total_bytes} "
          f"planted {sum(corpus.planted.values())} ({defects or 'none'})")


if __name__ == "__main__":
    main()
