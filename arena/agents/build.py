"""Uploaded programs: each language's build, run inside the sandbox, and the built program kept by its digest.

A person uploads one source file and picks a language (`LANGUAGES`). The build runs in the same sandbox as any
program (no network, nothing of Arena's readable, a private tmpfs): the source arrives on stdin, the compiler's
messages leave on stderr (shown to the author when the build fails) and the built program on stdout as base64.
The record keeps it (`ProgramBuild`); a worker writes it on first use into `programs_dir()` under its SHA-256,
from where the sandbox runs it, so any worker can run any uploaded program.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path

from arena.agents.sandbox import DEFAULT_LIMITS, run_once
from arena.models import ProgramBuild

#: Botzone's `#include "jsoncpp/json.h"`, over Debian's libjsoncpp-dev.
INCLUDE = Path(__file__).resolve().parent / "include"
#: The JVM's heap is bounded by -Xmx (its address space by `JVM_ADDRESS_SPACE_MB` in arena.agents.program).
JAVA_RUN = (
    "/usr/bin/java -Xmx256m -XX:+UseSerialGC -XX:ReservedCodeCacheSize=32m -XX:MaxMetaspaceSize=64m "
    "-XX:CompressedClassSpaceSize=32m -cp {path} Main"
)


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


LANGUAGES = {
    "cpp": Language(
        'C++17 (g++; JsonCpp as "jsoncpp/json.h")',
        "main.cpp",
        f"g++ -std=c++17 -O2 -I{shlex.quote(str(INCLUDE))} -I/usr/include/jsoncpp -o bot main.cpp -ljsoncpp",
        "{path}",
    ),
    "c": Language("C11 (gcc)", "main.c", "gcc -std=gnu11 -O2 -o bot main.c -lm", "{path}"),
    "python": Language(
        "Python 3 (with numpy)",
        "main.py",
        "python3 -m py_compile main.py && cp main.py bot",
        "/usr/bin/python3 {path}",
    ),
    "java": Language(
        "Java 17 (class Main)",
        "Main.java",
        "javac -J-Xmx512m -J-XX:+UseSerialGC -J-XX:CompressedClassSpaceSize=64m -J-XX:ReservedCodeCacheSize=64m "
        "Main.java && jar -J-Xmx256m -J-XX:CompressedClassSpaceSize=64m cf bot *.class",
        JAVA_RUN,
    ),
}
#: Longest source accepted (bytes), and the sandbox's limits for one build.
MAX_SOURCE_BYTES = 256_000
BUILD_LIMITS = {"time_s": 60, "cpu_s": 60, "memory_mb": 2048, "output_bytes": 10_000_000, "disk_mb": 256, "file_mb": 64}


@dataclass(frozen=True)
class Built:
    """What a build made: the program (b"" when it failed) and the compiler's messages."""

    artifact: bytes
    log: str

    @property
    def ok(self) -> bool:
        return bool(self.artifact)


async def build(language: str, source: str) -> Built:
    """Build `source` as `language` inside the sandbox."""
    spec = LANGUAGES[language]
    script = f"cat > {spec.filename} && {{ {spec.build}; }} >&2 && base64 -w0 bot"
    run = await run_once(["sh", "-c", script], source, {**DEFAULT_LIMITS, **BUILD_LIMITS})
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
