"""The learner's runner for the koans: ``python tools/koans.py``.

One job per module:

- ``course``   the course model: topics, koan files, lessons, hints, answers (stdlib only);
- ``running``  runs koan files with pytest in forked children of a warm fork server;
- ``path``     walks the curriculum and finds the first unsolved koan;
- ``progress`` the progress store under ``.koans/`` (atomic, locked, self-healing);
- ``pristine`` pristine copies of the koans, backups, ``reset`` and ``restore``;
- ``view``     everything the terminal shows;
- ``watch``    file events (inotify or polling), debouncing and the watch loop;
- ``kata``     the pair-programming kata;
- ``cli``      the commands.

Nothing here imports pytest, numpy or torch in the learner's process: only the fork server does.
"""
