"""The path: walk koan files in curriculum order and stop at the first unsolved koan.

Files already known to be all solved (same content, same Python, same conftest) are not run
again, so a learner deep into the course still gets a verdict as fast as one on topic 00.
Heavy modules are imported only by the files that need them, and only when reached.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from .course import Course, KoanFile, Topic, foreign_message, koan_key, koan_sources, test_name
from .early import verdict_files
from .progress import Store

DONE_KINDS = ("passed", "skipped")
# Verdicts a koan keeps while its source is unchanged; a timeout, a crash or no verdict at all
# is run again (it may have been the machine, not the koan).
KEPT_KINDS = ("passed", "skipped", "blank", "wrong", "error", "changed", "missing")


class RunsFiles(Protocol):
    def run(self, rel: str, needs: list[str], only: list[str] | None = None) -> dict[str, Any]: ...

    def preload(self, modules: list[str], files: list[str] | None = None) -> None: ...


@dataclass
class Stop:
    """Where the learner is: the first koan (or file) that is not solved."""

    file: KoanFile
    koan: dict[str, Any]
    topic: Topic

    @property
    def key(self) -> str:
        nodeid = self.koan.get("nodeid") or self.file.rel
        return koan_key(str(nodeid))

    @property
    def name(self) -> str:
        nodeid = str(self.koan.get("nodeid") or "")
        return test_name(nodeid) if "::" in nodeid else ""

    @property
    def title(self) -> str:
        return self.topic.title


@dataclass
class Walk:
    stop: Stop | None
    solved_now: list[tuple[KoanFile, str]] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    cancelled: bool = False  # a new save came while a file ran: the walk starts over
    pictures: dict[str, dict[str, Any]] = field(default_factory=dict)  # koan -> its picture


def env_key(course: Course) -> str:
    """What a verdict was given under: the Python, and the code that gives verdicts (the
    conftest, the plugin, the course model). A verdict given under another is not reused."""
    digest = hashlib.sha1()
    for path in verdict_files(course.root):
        try:
            with open(path, "rb") as handle:
                digest.update(os.path.relpath(path, course.root).encode() + b"\0" + handle.read())
        except OSError:
            digest.update(os.path.relpath(path, course.root).encode() + b"\0missing")
    return f"py{sys.version_info[0]}.{sys.version_info[1]}-{digest.hexdigest()[:12]}"


def log_event(event: str, **fields: Any) -> None:
    """Machine-readable events for benchmarks and tests (``KOANS_EVENT_LOG=path``)."""
    target = os.environ.get("KOANS_EVENT_LOG")
    if not target:
        return
    fields.update(event=event, t=time.time(), pid=os.getpid())
    try:
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(fields) + "\n")
    except OSError:  # a log nobody can write is no reason to stop the learner
        pass


def migrate_renamed(course: Course, store: Store) -> None:
    """Carry progress over to koans renamed by a course update: hints.toml lists a koan's old
    names under ``formerly``. Read only when a hints file changed since the last migration."""
    sources = [course.koans_dir / topic / "hints.toml" for topic in course.topic_names()]
    stamp = hashlib.sha1(repr([(str(p), _mtime(p)) for p in sources]).encode()).hexdigest()
    if store.read().get("renames_seen") == stamp:
        return
    renames: dict[tuple[str, str], str] = {}
    for path in sources:
        for new, entry in course.hints_file(path).items():
            for old in entry.get("formerly", []) if isinstance(entry, dict) else []:
                renames[(path.parent.name, str(old))] = new

    def change(data: dict[str, Any]) -> None:
        data["renames_seen"] = stamp
        for key in list(data["koans"]):
            topic = key.split("/", 1)[0]
            base, _, name = key.partition("::")
            new = renames.get((topic, name.split("[")[0]))
            if new is None:
                continue
            target = f"{base}::{new}{name[len(name.split('[')[0]):]}"
            entry = data["koans"].pop(key)
            data["koans"].setdefault(target, entry)
            data["skipped"] = [target if k == key else k for k in data["skipped"]]
            for record in data["files"].values():
                record["keys"] = [target if k == key else k for k in record.get("keys", [])]

    store.update(change)


def _mtime(path: Any) -> int:
    try:
        return int(os.stat(path).st_mtime_ns)
    except OSError:
        return 0


def missing_koans(f: KoanFile, result: dict[str, Any]) -> list[dict[str, Any]]:
    """The koans the answer key names for this file that the run did not report: renamed,
    deleted, emptied out, or never run."""
    if result.get("skipped") or result.get("broken"):
        return []
    reported = {test_name(k["nodeid"]) for k in result["koans"]}
    rows = []
    for name in f.expected_names():
        if name not in reported:
            rows.append({"nodeid": f"{f.rel}::{name}", "kind": "missing", "file": f.rel, "line": 0,
                         "message": f"{f.rel}: the koan {name} is no longer in this file (renamed, "
                         f"deleted, or the file emptied?). Bring it back with: python tools/koans.py "
                         f"reset {f.rel}"})
    return rows


class Path:
    def __init__(self, course: Course, store: Store, runner: RunsFiles, known: list[str]) -> None:
        self.course = course
        self.store = store
        self.runner = runner
        self.known = known  # files ever snapshotted: a deleted one keeps its place
        self.full_run = False  # True: the next runs ignore kept verdicts (watch's 'r')

    def topics(self) -> list[Topic]:
        return self.course.topics(self.known)

    def ordered(self, data: dict[str, Any]) -> list[tuple[Topic, KoanFile]]:
        pairs = [(topic, f) for topic in self.topics() for f in topic.files]
        start = str(data.get("start") or "").split("::")[0]
        if start:
            index = next((i for i, (_, f) in enumerate(pairs)
                          if f.rel >= start or f.rel.startswith(start)), 0)
            pairs = pairs[index:] + pairs[:index]
        return pairs

    def run_file(self, f: KoanFile, env: str, walk: Walk) -> dict[str, Any]:
        """The file's verdicts. Only the koans whose source changed since their last verdict
        run (and those that have none): a koan's verdict is kept while its own lines, the
        module's code outside the koans, the answer key, the hints, the Python and the code
        that gives verdicts are all as they were (``keys``). When in doubt, the file runs."""
        digest = f.digest()
        keys = self.source_keys(f, env)
        data = self.store.read()
        names = f.expected_names()
        kept: dict[str, dict[str, Any]] = {}
        if keys and not self.full_run:
            for name in names:
                entry = data["koans"].get(koan_key(f"{f.rel}::{name}"), {})
                verdict = entry.get("verdict")
                if isinstance(verdict, dict) and entry.get("source_key") == keys.get(name) and \
                        verdict.get("kind") in KEPT_KINDS:
                    kept[name] = dict(verdict, reused=True)
        only = [name for name in names if name not in kept] if kept else None
        if kept and not only:
            result: dict[str, Any] = {"file": f.rel, "koans": [], "broken": None,
                                      "skipped": None, "elapsed": 0.0}
        else:
            log_event("run-start", file=f.rel, only=only)
            result = self.runner.run(f.rel, f.needs(), only)
            log_event("run-end", file=f.rel, elapsed=result.get("elapsed"),
                      cancelled=bool(result.get("cancelled")),
                      durations={test_name(k["nodeid"]): k["duration"] for k in result["koans"]
                                 if isinstance(k.get("duration"), (int, float))})
            if result.get("cancelled"):
                walk.cancelled = True
                return result
            walk.ran.append(f.rel)
        named = set(names)  # a test the learner added is not a koan
        fresh = [k for k in result["koans"] if not named or test_name(k["nodeid"]) in named]
        if kept and not result.get("broken") and not result.get("skipped"):
            order = {name: i for i, name in enumerate(names)}
            fresh = sorted(fresh + list(kept.values()),
                           key=lambda k: order.get(test_name(k["nodeid"]), len(order)))
        result["koans"] = fresh
        result["koans"] = fresh + missing_koans(f, result)  # named by the key, not run
        result["keys"] = keys
        if result.get("internal"):
            walk.notes.append(f"the runner hit an internal problem on {f.rel}: {result['internal']}")
        solved = self.store.update(lambda data: self._record(data, f, digest, env, result))
        for key, picture in solved:
            walk.solved_now.append((f, key))
            if picture is not None:
                walk.pictures[key] = picture
        return result

    def source_keys(self, f: KoanFile, env: str) -> dict[str, str]:
        """Each koan's key: what its verdict depends on (see ``run_file``). Empty when the file
        does not parse or cannot be split into koans."""
        text = f.read()
        split = koan_sources(text) if text is not None else None
        if split is None:
            return {}
        module, own = split
        hints = self.course.koans_dir / f.topic / "hints.toml"
        try:
            notes = hints.read_bytes()
        except OSError:
            notes = b""
        shared = hashlib.sha1("\0".join([env, module, f.answer_digest() or ""]).encode() + notes)
        keys = {}
        for name, lines in own.items():
            digest = shared.copy()
            digest.update(lines.encode())
            keys[name] = digest.hexdigest()
        return keys

    @staticmethod
    def _record(data: dict[str, Any], f: KoanFile, digest: str | None, env: str,
                result: dict[str, Any]) -> list[tuple[str, dict[str, Any] | None]]:
        """Remember a run's verdicts; returns the koans it solved now (with their pictures).
        It changes nothing but ``data``: a store may make it twice (see ``Store.batch``)."""
        now = time.time()
        solved: list[tuple[str, dict[str, Any] | None]] = []
        previous = data["files"].get(f.rel, {})
        keys = []
        source_keys = result.get("keys") or {}
        for koan in result["koans"]:
            key = koan_key(koan["nodeid"])
            keys.append(key)
            if koan["kind"] == "unknown" or koan.get("reused"):
                continue  # nothing new is known of it
            entry = data["koans"].setdefault(key, {"first_seen": now, "hints": 0})
            was = entry.get("kind")
            entry["kind"] = koan["kind"]
            name = test_name(koan["nodeid"])
            if source_keys.get(name) and koan["kind"] in KEPT_KINDS and "[" not in koan["nodeid"]:
                entry["verdict"] = {k: koan[k] for k in ("nodeid", "kind", "file", "line", "message",
                                                         "brief", "typed") if k in koan}
                entry["source_key"] = source_keys[name]
            else:
                entry.pop("verdict", None)
                entry.pop("source_key", None)
            if koan["kind"] not in ("passed", "blank", "skipped", "unknown"):
                entry["misses"] = int(entry.get("misses", 0)) + 1
            if koan["kind"] == "wrong" and koan.get("typed"):  # each distinct wrong fill, once
                tries = [t for t in entry.get("tries", []) if isinstance(t, str)]
                if koan["typed"] not in tries:
                    entry["tries"] = [*tries, str(koan["typed"])][-20:]
            if koan["kind"] == "passed":
                if was != "passed":
                    entry["solved_at"] = now
                    # Predicted: filled right the first time it was filled at all. A koan that
                    # passed the first time the runner saw it (a pre-solved intro koan) was
                    # never a prediction, and is left out of the count.
                    if was is None:
                        entry.setdefault("given", True)
                    entry.setdefault("predicted", was == "blank" and not entry.get("misses"))
                    if was is not None:
                        picture = koan.get("picture")
                        solved.append((key, picture if isinstance(picture, dict) else None))
                        if key in data["skipped"]:
                            data["skipped"].remove(key)
            else:
                entry.pop("solved_at", None)
        if result.get("broken"):
            keys = list(previous.get("keys", []))
            for key in keys:
                if key in data["koans"]:
                    data["koans"][key]["kind"] = "broken"
                    data["koans"][key].pop("source_key", None)
        kinds = [k["kind"] for k in result["koans"]]
        all_solved = not result.get("broken") and not result.get("internal") and all(
            kind in DONE_KINDS for kind in kinds)
        data["files"][f.rel] = {"digest": digest, "env": env, "keys": keys,
                                "all_solved": all_solved, "skipped": result.get("skipped")}
        return solved

    def walk(self) -> Walk:
        walk = Walk(stop=None)
        data = self.store.read()
        walk.notes += self.store.notes
        self.store.notes.clear()
        if not (self.course.root / "conftest.py").is_file() and self.topics():
            topic = self.topics()[0]
            first = topic.files[0] if topic.files else self.course.file("conftest.py")
            walk.stop = Stop(first, {"kind": "broken", "nodeid": "conftest.py", "line": 0,
                                     "message": "conftest.py at the course root is missing: it "
                                     "is what turns a pytest run into verdicts. Bring it back: "
                                     "git checkout conftest.py"}, topic)
            return walk
        foreign = self.course.foreign_files()
        if foreign:  # nothing is run while a file could change what pytest does
            topic = self.topics()[0] if self.topics() else Topic("koans", ())
            first = topic.files[0] if topic.files else self.course.file(foreign[0])
            walk.stop = Stop(first, {"kind": "foreign", "nodeid": foreign[0], "line": 0,
                                     "message": foreign_message(foreign)}, topic)
            return walk
        env = env_key(self.course)
        skipped = set(data["skipped"])
        results: dict[str, dict[str, Any]] = {}
        order = self.ordered(data)
        for second_pass in (False, True):
            for topic, f in order:
                if not f.exists():
                    walk.stop = Stop(f, {"kind": "missing", "nodeid": f.rel, "line": 0,
                                         "message": f"{f.rel}: this koan file is missing "
                                         "(deleted or moved?)"}, topic)
                    return walk
                record = data["files"].get(f.rel)
                if f.rel not in results:
                    if (record and record.get("all_solved") and record.get("env") == env
                            and record.get("digest") == f.digest()):
                        continue
                    results[f.rel] = self.run_file(f, env, walk)
                    if walk.cancelled:
                        return walk
                result = results[f.rel]
                if result.get("broken"):
                    walk.stop = Stop(f, dict(result["broken"]), topic)
                    return walk
                if result.get("internal"):  # no verdict is never a pass
                    walk.stop = Stop(f, {"kind": "crashed", "nodeid": f.rel, "line": 0, "message": (
                        f"{f.rel}: the check of this file did not finish ({result['internal']}); "
                        "nothing in it counts until it does")}, topic)
                    return walk
                start_koan = str(data.get("start") or "")
                before_start = "::" in start_koan and start_koan.split("::")[0] == f.rel
                for koan in result["koans"]:
                    if before_start and not second_pass:
                        if koan["nodeid"].split("[")[0] != start_koan:
                            continue
                        before_start = False
                    if koan["kind"] in DONE_KINDS:
                        continue
                    if not second_pass and koan_key(koan["nodeid"]) in skipped:
                        continue
                    walk.stop = Stop(f, dict(koan), topic)
                    return walk
            if not skipped and "::" not in str(data.get("start") or ""):
                break
        return walk

    # -- what the learner has done, for bars and tables ----------------------------------------

    def _cannot_run(self, f: KoanFile) -> str:
        """Why a file not run yet cannot run here, read without running it ('' when it can):
        it needs torch and torch is not installed, or every koan in it needs a CUDA GPU."""
        if "torch" in f.needs() and not self.have_torch():
            return "needs torch, which is not installed for this Python"
        text = f.read() or ""
        if "pytestmark" in text and "mark.cuda" in text.split("pytestmark", 1)[1].split("\n", 1)[0]:
            return "needs a CUDA GPU (not checked on this machine yet)"
        return ""

    _torch: bool | None = None

    def have_torch(self) -> bool:
        if Path._torch is None:
            import importlib.util

            Path._torch = importlib.util.find_spec("torch") is not None
        return bool(Path._torch)

    def totals(self, data: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Per topic: koans solved, the total that can run here, those put aside, those that
        cannot run here (``unavailable``; ``need_gpu`` of them for want of a CUDA GPU) and the
        first-try predictions. A file not run yet that needs torch where torch is missing, or
        whose koans all need a GPU, counts as unavailable until a run says otherwise."""
        data = data if data is not None else self.store.read()
        rows = []
        skipped = set(data["skipped"])
        for topic in self.topics():
            solved = total = put_aside = unavailable = need_gpu = predicted = predictable = 0
            for f in topic.files:
                record = data["files"].get(f.rel)
                # A verdict counts only for the file as it is now: after a reset, or an edit
                # not yet checked, what was solved before is not known to be solved now.
                current = bool(record) and record.get("digest") == f.digest()
                names = f.expected_names() or f.test_names()
                why_not = str(record.get("skipped") or "") if record else self._cannot_run(f)
                if why_not:  # the file as a whole cannot run here
                    unavailable += len(names)
                    need_gpu += len(names) * ("CUDA" in why_not or "GPU" in why_not)
                    continue
                if record and record.get("keys"):
                    keys = record.get("keys") or []
                else:
                    keys = [f"{topic.name}/{f.name}::{name}" for name in names]
                for key in keys:
                    entry = data["koans"].get(key, {})
                    kind = entry.get("kind")
                    if kind == "skipped":
                        unavailable += 1
                        need_gpu += "GPU" in str((entry.get("verdict") or {}).get("message", ""))
                        continue
                    total += 1
                    solved += kind == "passed" and current
                    predicted += bool(entry.get("predicted")) and kind == "passed" and current
                    predictable += kind == "passed" and current and not entry.get("given")
                    put_aside += key in skipped and kind != "passed"
            rows.append({"topic": topic.name, "title": topic.title, "solved": solved,
                         "total": total, "skipped": put_aside, "unavailable": unavailable,
                         "need_gpu": need_gpu, "predicted": predicted, "predictable": predictable})
        return rows
