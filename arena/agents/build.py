"""Uploaded programs: each language's build, run inside the sandbox, and the built program kept by its digest.

A person uploads one source file, or a zip archive of several, and picks a language (`LANGUAGES`). The build runs
in the same sandbox as any program (no network, nothing of Arena's readable, a private tmpfs): the source (or the
archive, as base64, unpacked there) arrives on stdin, the compiler's messages leave on stderr (shown to the author
when the build fails) and the built program on stdout as base64. An archive is checked before it is queued
(`archive_problem`): its listing only, never unpacked outside the sandbox.
The record keeps it (`ProgramBuild`); a worker writes it on first use into `programs_dir()` under its SHA-256,
from where the sandbox runs it, so any worker can run any uploaded program.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import os
import shlex
import stat
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from arena.agents.sandbox import DEFAULT_LIMITS, run_once
from arena.models import ProgramBuild

#: Botzone's `#include "jsoncpp/json.h"`, over Debian's libjsoncpp-dev.
INCLUDE = Path(__file__).resolve().parent / "include"
#: The JVM's heap is bounded by -Xmx (its address space by `JVM_ADDRESS_SPACE_MB` in arena.agents.program).
JAVA_RUN = (
    "/usr/bin/java -Xmx256m -XX:+UseSerialGC -XX:ReservedCodeCacheSize=32m -XX:MaxMetaspaceSize=64m "
    "-XX:CompressedClassSpaceSize=32m -cp {path} Main"
)
_JAVAC = "javac -J-Xmx512m -J-XX:+UseSerialGC -J-XX:CompressedClassSpaceSize=64m -J-XX:ReservedCodeCacheSize=64m"
_JAR = "jar -J-Xmx256m -J-XX:CompressedClassSpaceSize=64m"


@dataclass(frozen=True)
class Language:
    """How one language's upload is built and run."""

    label: str
    #: The source's file name in the build's working directory.
    filename: str
    #: Shell: from the source to the file `bot` (the built program).
    build: str
    #: The command that runs the built program kept at {path}.
    run: str
    #: Shell: from an unpacked archive (the working directory, its top) to the file `$work/bot`.
    archive_build: str
    #: What an archive must hold: a file of this name at its top, or (".cpp", ".c") one of this suffix anywhere.
    archive_entry: str


_CPP = f"g++ -std=c++17 -O2 -I. -I{shlex.quote(str(INCLUDE))} -I/usr/include/jsoncpp"

LANGUAGES = {
    "cpp": Language(
        'C++17 (g++; JsonCpp as "jsoncpp/json.h")',
        "main.cpp",
        f"{_CPP} -o bot main.cpp -ljsoncpp",
        "{path}",
        f"{_CPP} -o \"$work/bot\" $(find . -name '*.cpp') -ljsoncpp",
        ".cpp",
    ),
    "c": Language(
        "C11 (gcc)",
        "main.c",
        "gcc -std=gnu11 -O2 -o bot main.c -lm",
        "{path}",
        "gcc -std=gnu11 -O2 -I. -o \"$work/bot\" $(find . -name '*.c') -lm",
        ".c",
    ),
    "python": Language(
        "Python 3 (with numpy)",
        "main.py",
        "python3 -m py_compile main.py && cp main.py bot",
        "/usr/bin/python3 {path}",
        # The archive as a zip Python runs: main.py as its __main__, every other module importable beside it.
        "python3 -m compileall -q . && cp main.py __main__.py && find . -name '*.py' | "
        'python3 -c \'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], "w"); '
        '[z.write(n.strip(), n.strip()[2:]) for n in sys.stdin]; z.close()\' "$work/bot"',
        "main.py",
    ),
    "java": Language(
        "Java 17 (class Main)",
        "Main.java",
        f"{_JAVAC} Main.java && {_JAR} cf bot *.class",
        JAVA_RUN,
        f'mkdir "$work/classes" && {_JAVAC} -d "$work/classes" $(find . -name \'*.java\') && '
        f'{_JAR} cf "$work/bot" -C "$work/classes" .',
        "Main.java",
    ),
}
#: Longest source accepted (bytes), and the sandbox's limits for one build.
MAX_SOURCE_BYTES = 256_000
#: An archive: at most this many bytes uploaded, files in it, and bytes once unpacked (as its listing declares;
#: the sandbox's disk limit holds whatever it really unpacks to).
MAX_ARCHIVE_BYTES = 1_000_000
MAX_ARCHIVE_FILES = 200
MAX_UNPACKED_BYTES = 8_000_000
BUILD_LIMITS = {"time_s": 60, "cpu_s": 60, "memory_mb": 2048, "output_bytes": 10_000_000, "disk_mb": 256, "file_mb": 64}


@dataclass(frozen=True)
class Built:
    """What a build made: the program (b"" when it failed) and the compiler's messages."""

    artifact: bytes
    log: str

    @property
    def ok(self) -> bool:
        return bool(self.artifact)


def _members(data: bytes) -> list[zipfile.ZipInfo]:
    return zipfile.ZipFile(io.BytesIO(data)).infolist()


def archive_top(members: list[zipfile.ZipInfo]) -> PurePosixPath:
    """The archive's top: its one folder when everything is in it (as people zip a folder), else the archive's
    root. A macOS `__MACOSX` folder does not count."""
    files = [PurePosixPath(member.filename) for member in members if not member.is_dir()]
    tops = {name.parts[0] if len(name.parts) > 1 else "" for name in files if name.parts[0] != "__MACOSX"}
    return PurePosixPath(tops.pop()) if len(tops) == 1 and "" not in tops else PurePosixPath(".")


def archive_problem(language: str, data: bytes) -> str:
    """Why `data` cannot be built as `language` ("" when it can): not a zip, too large, a name that leaves the
    working directory, a link or device, or no entry file. Reads the archive's listing only."""
    if len(data) > MAX_ARCHIVE_BYTES:
        return f"The archive is {len(data):,} bytes; at most {MAX_ARCHIVE_BYTES:,}."
    try:
        members = _members(data)
    except (zipfile.BadZipFile, ValueError):
        return "The file is neither UTF-8 source text nor a zip archive."
    if len(members) > MAX_ARCHIVE_FILES:
        return f"The archive holds {len(members):,} files; at most {MAX_ARCHIVE_FILES}."
    if (unpacked := sum(member.file_size for member in members)) > MAX_UNPACKED_BYTES:
        return f"The archive unpacks to {unpacked:,} bytes; at most {MAX_UNPACKED_BYTES:,}."
    for member in members:
        path = PurePosixPath(member.filename)
        kind = stat.S_IFMT(member.external_attr >> 16)
        if path.is_absolute() or ".." in path.parts or "\\" in member.filename:
            return f"{member.filename[:120]!r} would be unpacked outside the archive's folder."
        if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
            return f"{member.filename[:120]!r} is a link or a device; the archive may hold files and folders only."
    top = archive_top(members)
    names = [PurePosixPath(member.filename) for member in members if not member.is_dir()]
    entry = LANGUAGES[language].archive_entry
    if entry.startswith("."):
        if not any(name.suffix == entry for name in names):
            return f"The archive holds no {entry} file."
    elif top / entry not in names:
        return f"The archive holds no {entry} at its top."
    return ""


async def build(language: str, source: str, archive: bytes = b"") -> Built:
    """Build `source` as `language` inside the sandbox, or, given `archive` (checked by `archive_problem`), the
    zip's files unpacked there."""
    spec = LANGUAGES[language]
    if archive:
        top = shlex.quote(str(PurePosixPath("src") / archive_top(_members(archive))))
        unpack = f"work=$PWD && mkdir src && base64 -d > upload.zip && python3 -m zipfile -e upload.zip src && cd {top}"
        script = f'{unpack} && {{ {spec.archive_build}; }} >&2 && base64 -w0 "$work/bot"'
        text = base64.b64encode(archive).decode()
    else:
        script = f"cat > {spec.filename} && {{ {spec.build}; }} >&2 && base64 -w0 bot"
        text = source
    run = await run_once(["sh", "-c", script], text, {**DEFAULT_LIMITS, **BUILD_LIMITS})
    if run.failure == "timeout":
        return Built(b"", f"The build took longer than {BUILD_LIMITS['time_s']} s.\n{run.stderr}")
    if run.failure == "output_limit":
        return Built(b"", f"The built program is larger than {BUILD_LIMITS['output_bytes'] * 3 // 4:,} bytes.")
    try:
        artifact = base64.b64decode(run.stdout, validate=True) if not run.failure else b""
    except binascii.Error:
        artifact = b""
    return Built(artifact, run.stderr or ("" if artifact else "The build made no program."))


def programs_dir() -> Path:
    """Where this host keeps built programs (outside Arena's data directory, which programs cannot see)."""
    return Path(tempfile.gettempdir()) / "arena-programs"


def digest_of(artifact: bytes) -> str:
    return hashlib.sha256(artifact).hexdigest()


def command(language: str, digest: str) -> str:
    """The command running the built program `digest`, written from the record into `programs_dir()` if missing."""
    path = programs_dir() / digest / "bot"
    if not path.exists():
        artifact = ProgramBuild.objects.filter(digest=digest, ok=True).values_list("artifact", flat=True).first()
        if artifact is None:
            raise LookupError(f"No built program {digest[:12]}… in the record.")
        path.parent.mkdir(parents=True, exist_ok=True)
        os.chmod(path.parent.parent, 0o755)
        os.chmod(path.parent, 0o755)
        partial = path.with_suffix(f".{os.getpid()}")
        partial.write_bytes(bytes(artifact))
        partial.chmod(0o755)  # the sandbox's user (`nobody`) runs it
        partial.replace(path)
    return LANGUAGES[language].run.format(path=shlex.quote(str(path)))
