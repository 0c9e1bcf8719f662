"""Pristine koans, backups, ``reset`` and ``restore``. Nothing the learner typed is ever lost.

Where the pristine text comes from (in this order):

1. ``.koans/pristine/``: the runner copies every koan file there the first time it sees it
   (the first run after a clone, or after an update brings a new file). It is used only if it
   still *looks* pristine (it parses and every koan that is not pre-solved still has a blank:
   a learner who filled koans before ever running the runner would otherwise get their own
   answers back) and only if it belongs to the course as it is now: the snapshot records the
   digest of the file's answer key, and an update of the course changes that. When the koan
   file itself is pristine again after an update, the snapshot is simply taken again.
2. ``git``, when available: the newest committed version of the file that looks pristine.
   ``git show HEAD:path`` alone is not enough, since learners commit their answers.
3. Otherwise ``reset`` refuses for that file and says why, rather than guess.

Backups live in ``.koans/backups/STAMP/`` with a manifest; ``restore STAMP`` puts them back
(and backs up what it overwrites first).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from .course import KOANS, Course, is_pristine_of, listing, looks_pristine, read_source

MANIFEST = "manifest.json"


class Pristine:
    def __init__(self, course: Course) -> None:
        self.course = course
        self.dir = course.state_dir / "pristine"
        self.backups = course.state_dir / "backups"
        self._known: set[str] | None = None
        self._seen: set[str] = set()  # files known to be in the snapshot already
        self._keys: dict[str, str] | None = None

    # -- the snapshot -------------------------------------------------------------------------

    def known(self) -> list[str]:
        """Koan files ever snapshotted (so a deleted one is still on the path)."""
        if self._known is None:
            base = self.dir / KOANS
            self._known = set()
            if base.is_dir():
                self._known = {p.relative_to(self.dir).as_posix() for p in base.glob("*/test_*.py")}
        return sorted(self._known)

    def snapshot(self) -> list[str]:
        """Copy koan files not yet snapshotted (or pristine again after a course update).
        Cheap: cached listings and a few copies."""
        added: list[str] = []
        src_base = self.course.koans_dir
        if not src_base.is_dir():
            return added
        manifest = self._manifest()
        changed = False
        for topic in self.course.topic_names():
            for name in listing(os.path.join(src_base, topic)):
                rel = f"{KOANS}/{topic}/{name}"
                if rel in self._seen or not name.endswith((".py", ".toml", ".md")):
                    continue
                path = src_base / topic / name
                if not path.is_file():
                    continue
                target = self.dir / rel
                key = self._answer_key(rel)
                fresh = not target.exists()
                if not fresh and key is not None and manifest.get(rel, key) != key:
                    # The course was updated under this file: take it again if it is pristine.
                    fresh = looks_pristine(path.read_text(encoding="utf-8", errors="replace"))
                if fresh:
                    if not self._copy_in(path, target):
                        continue  # an unwritable state folder keeps no snapshot
                    added.append(rel)
                    if self._known is not None and name.startswith("test_") and name.endswith(".py"):
                        self._known.add(rel)
                if (fresh or rel not in manifest) and key is not None:
                    manifest[rel] = key
                    changed = True
                self._seen.add(rel)
        if changed:
            _atomic_write(self.dir / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True).encode())
        return added

    def _manifest(self) -> dict[str, str]:
        """rel -> the digest of its answer file when the snapshot was taken."""
        if self._keys is None:
            try:
                data = json.loads((self.dir / MANIFEST).read_text(encoding="utf-8"))
                self._keys = {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
            except (OSError, ValueError):
                self._keys = {}
        return self._keys

    def _answer_key(self, rel: str) -> str | None:
        """The digest of the answer file beside a koan file: it changes only when the course is
        updated (learners never edit answers/). None for files without one (lessons, hints)."""
        if not rel.endswith(".py"):
            return None
        return self.course.file(rel).answer_digest()

    def is_current(self, rel: str) -> bool:
        """Whether the snapshot of ``rel`` belongs to the course as it is now."""
        key = self._answer_key(rel)
        recorded = self._manifest().get(rel)
        return key is None or recorded is None or recorded == key

    def answer(self, rel: str) -> str | None:
        """The answer file of koan file ``rel`` (or the answer file ``rel``) as the course shipped
        it: the working copy when the snapshot of its koan is pristine with respect to it; else
        the version git holds at HEAD, where there is one. The answer key says what a koan is
        only as shipped: an answer edited to match an edited koan proves nothing."""
        koan_rel = KOANS + rel[len("answers"):] if rel.startswith("answers/") else rel
        answer_rel = "answers" + koan_rel[len(KOANS):]
        working = read_source(self.course.root / answer_rel)
        snap = read_source(self.dir / koan_rel)
        if working is not None and snap is not None and is_pristine_of(snap, working):
            return working
        shipped = self._git_head(answer_rel)
        return shipped if shipped is not None else working

    def text(self, rel: str) -> tuple[str | None, str]:
        """The pristine text of a koan file and where it came from (or None and why not).

        A candidate is pristine when it is the answer file with blanks where the fills are
        (``is_pristine_of``); without an answer file, when every koan in it still has a blank.
        Candidates: the snapshot, the file itself as it is now (then it is snapshotted), git.
        They are proven against the answer file as it is, or else as the course shipped it."""
        if not rel.endswith(".py"):
            try:
                return (self.dir / rel).read_text(encoding="utf-8"), "the snapshot"
            except (OSError, UnicodeDecodeError):
                return None, f"no pristine copy of {rel} is known"
        working = read_source(self.course.file(rel).answer_path)
        found = self._proven(rel, working)
        if found[0] is None:
            shipped = self.answer(rel)
            if shipped is not None and shipped != working:
                found = self._proven(rel, shipped)
        return found

    def _proven(self, rel: str, answer: str | None) -> tuple[str | None, str]:
        def valid(text: str | None) -> bool:
            if text is None:
                return False
            return is_pristine_of(text, answer) if answer is not None else looks_pristine(text)

        snap = read_source(self.dir / rel)
        if valid(snap):
            return snap, "the snapshot taken at your first run"
        current = read_source(self.course.root / rel)
        if valid(current):
            self._take(rel)
            return current, "the file itself, untouched so far"
        from_git = self._from_git(rel, valid)
        if from_git is not None:
            return from_git, "git history"
        if snap is not None and not self.is_current(rel):
            return None, (f"{rel} changed in an update of the course since your first run, and "
                          "no pristine copy of the new version is known (git has none): get it "
                          "from the course's repository")
        if snap is not None:
            return None, (f"the snapshot of {rel} already has solved koans (they were filled before"
                          " the runner first ran) and git has no pristine version")
        return None, f"no pristine copy of {rel} is known (no snapshot, no git history)"

    def _git_head(self, rel: str) -> str | None:
        """``rel`` as committed at HEAD, or None (no git, not tracked)."""
        try:
            shown = subprocess.run(["git", "show", f"HEAD:{rel}"], cwd=self.course.root,
                                   capture_output=True, timeout=20, check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        if shown.returncode != 0:
            return None
        try:
            return shown.stdout.decode("utf-8")
        except UnicodeDecodeError:
            return None

    def _take(self, rel: str) -> None:
        """Snapshot one file now (a read-only checkout simply keeps none)."""
        self._copy_in(self.course.root / rel, self.dir / rel)

    @staticmethod
    def _copy_in(source: Path, target: Path) -> bool:
        """Copy ``source`` to ``target`` whole or not at all; False where it cannot be written."""
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, tmp)
            os.replace(tmp, target)
            return True
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink()
            return False

    def _from_git(self, rel: str, valid: Callable[[str | None], bool] | None = None) -> str | None:
        valid = valid or (lambda text: text is not None and looks_pristine(text))
        root = self.course.root
        try:
            revs = subprocess.run(
                ["git", "log", "--format=%H", "--", rel], cwd=root, capture_output=True,
                text=True, encoding="utf-8", errors="replace", timeout=20, check=True,
            ).stdout.split()
            for rev in revs[:200]:
                shown = subprocess.run(["git", "show", f"{rev}:{rel}"], cwd=root,
                                       capture_output=True, text=True, encoding="utf-8",
                                       errors="replace", timeout=20, check=False)
                if shown.returncode == 0 and valid(shown.stdout):
                    return shown.stdout
        except (OSError, subprocess.SubprocessError):
            return None
        return None

    # -- backups ------------------------------------------------------------------------------

    def backup(self, rels: list[str], reason: str) -> str | None:
        present = [rel for rel in rels if (self.course.root / rel).exists()]
        if not present:
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.backups / stamp
        n = 1
        while target.exists():
            n += 1
            target = self.backups / f"{stamp}-{n}"
        for rel in present:
            dest = target / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            if (self.course.root / rel).is_dir():  # a folder where the koan file belongs
                shutil.copytree(self.course.root / rel, dest)
            else:
                shutil.copy2(self.course.root / rel, dest)
        manifest = {"files": present, "reason": reason, "created": time.time()}
        (target / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        return target.name

    def list_backups(self) -> list[tuple[str, dict[str, object]]]:
        rows = []
        if self.backups.is_dir():
            for entry in sorted(self.backups.iterdir()):
                try:
                    rows.append((entry.name, json.loads((entry / "manifest.json").read_text())))
                except (OSError, ValueError):
                    continue
        return rows

    def restore(self, stamp: str) -> tuple[list[str], str | None, list[str]]:
        """Put a backup back; what it overwrites is backed up first. Returns (files put back,
        new stamp, what could not be done); nothing is written when the backup first fails."""
        source = self.backups / stamp
        try:
            manifest = json.loads((source / "manifest.json").read_text(encoding="utf-8"))
            files = [str(rel) for rel in manifest["files"]]
        except (OSError, ValueError, KeyError, TypeError) as err:
            return [], None, [f"the backup {stamp} cannot be read ({_why(err)})"]
        try:
            saved = self.backup(files, f"before restoring {stamp}")
        except OSError as err:
            return [], None, [f"nothing was restored: what it would replace could not be backed up "
                              f"in {self.backups} ({_why(err)})"]
        done, failed = [], []
        for rel in files:
            dest = self.course.root / rel
            try:
                dest.parent.mkdir(parents=True, exist_ok=True)
                if dest.is_dir():
                    shutil.rmtree(dest)
                if (source / rel).is_dir():
                    shutil.copytree(source / rel, dest)
                else:
                    _atomic_write(dest, (source / rel).read_bytes())
            except OSError as err:
                failed.append(f"{rel} cannot be written ({_why(err)})")
                continue
            done.append(rel)
        return done, saved, failed

    def reset(self, rels: list[str], on_backup: Callable[[str], None] | None = None
              ) -> tuple[list[str], list[str], str | None]:
        """Restore pristine files, and a topic's lesson and hints where they are gone (the hints
        also where they no longer parse). Returns
        (reset files, refusals, backup stamp). What is backed up is only what differs from
        pristine (so a second reset never buries the learner's work under a pristine copy), and
        the backup is announced (``on_backup``) before any file is written."""
        texts: dict[str, str] = {}
        refused = []
        for rel in rels:
            text, origin = self.text(rel)
            if text is None:
                refused.append(origin)
            else:
                texts[rel] = text
        for topic in sorted({rel.split("/")[1] for rel in texts}):
            for name in ("README.md", "hints.toml"):
                rel = f"{KOANS}/{topic}/{name}"
                broken = name == "hints.toml" and self.course.hints_error(topic) is not None
                if broken or not (self.course.root / rel).exists():
                    text, _ = self.text(rel)
                    if text is not None:
                        texts[rel] = text
        ours = sorted(rel for rel, text in texts.items() if _differs(self.course.root / rel, text))
        try:
            stamp = self.backup(ours, "reset " + " ".join(ours))
        except OSError as err:  # never overwrite what could not be backed up
            why = f"nothing was reset: your version could not be backed up in {self.backups}"
            return [], [*refused, f"{why} ({_why(err)})"], None
        if stamp and on_backup is not None:
            on_backup(stamp)
        done = []
        for rel, text in texts.items():
            dest = self.course.root / rel
            if rel not in ours and dest.is_file():  # already pristine
                done.append(rel)
                continue
            try:
                if dest.is_dir():  # backed up above: the koan file takes its place again
                    shutil.rmtree(dest)
                dest.parent.mkdir(parents=True, exist_ok=True)
                _atomic_write(dest, text.encode("utf-8"))
            except OSError as err:
                refused.append(f"{rel} cannot be written ({_why(err)})")
                continue
            done.append(rel)
        return sorted(done), refused, stamp


def _differs(path: Path, text: str) -> bool:
    """Whether the file on disk holds anything but ``text`` (a folder, other bytes)."""
    if not path.exists():
        return False
    if not path.is_file():
        return True
    try:
        return path.read_bytes() != text.encode("utf-8")
    except OSError:
        return True


def _why(err: BaseException) -> str:
    return getattr(err, "strerror", None) or str(err) or type(err).__name__


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
