"""The real C# runtime of the conformance suite: Mono.

Every program of ``tests/conformance/csharp/`` that Mono's ``mcs`` can compile (C# up to 7)
goes into ONE assembly, compiled by one ``mcs`` invocation (mcs takes a good part of a second
to start): each program is wrapped in a namespace of its own (``Conformance.<name>``; its
``using`` directives moved inside), so two programs' ``Program`` classes do not collide, and a
small driver runs each program's ``Main`` with the console redirected, in a fresh
``StringWriter`` per program, under the invariant culture. A program mcs rejects is taken out
of the batch and reported with the compiler's message. The assembly and the outputs are kept
under the temp directory, keyed by the hash of every wrapped source, the driver and the
compiler's version: a second session with the same programs compiles nothing.

Importing this module runs nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: The namespace every wrapped program lives in.
ROOT_NAMESPACE = "Conformance"

DRIVER = """
using System;
using System.Globalization;
using System.IO;
using System.Reflection;
using System.Threading;

static class ConformanceDriver
{
    // args: the output folder, then the programs to run; writes <name>.out and <name>.error.
    static int Main(string[] args)
    {
        Thread.CurrentThread.CurrentCulture = CultureInfo.InvariantCulture;
        Thread.CurrentThread.CurrentUICulture = CultureInfo.InvariantCulture;
        TextWriter standard = Console.Out;
        for (int i = 1; i < args.Length; i++)
        {
            string name = args[i];
            Type program = typeof(ConformanceDriver).Assembly.GetType("%ROOT%." + name + ".Program");
            var output = new StringWriter(CultureInfo.InvariantCulture);
            output.NewLine = "\\n";
            string error = "";
            Console.SetOut(output);
            try
            {
                MethodInfo main = program.GetMethod(
                    "Main", BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic);
                object[] parameters = main.GetParameters().Length == 0
                    ? null
                    : new object[] { new string[0] };
                main.Invoke(null, parameters);
            }
            catch (TargetInvocationException e)
            {
                error = e.InnerException.GetType().FullName + ": " + e.InnerException.Message;
            }
            Console.Out.Flush();
            Console.SetOut(standard);
            File.WriteAllText(Path.Combine(args[0], name + ".out"), output.ToString());
            File.WriteAllText(Path.Combine(args[0], name + ".error"), error);
        }
        return 0;
    }
}
""".replace("%ROOT%", ROOT_NAMESPACE)

#: How mcs compiles the batch (part of the cache key): the newest language it knows (7.2, for
#: ``in`` parameters), the driver's ``Main`` as the entry point, LINQ's assembly.
MCS_OPTIONS = (
    "-nologo",
    "-warn:0",
    "-langversion:7.2",
    "-main:ConformanceDriver",
    "-r:System.Core.dll",
)

_USING = re.compile(r"^\s*using\s+[^;(]+;\s*$")
_COMPILER_ERROR = re.compile(r"^(?P<file>[^(\s]+)\.cs\(\d+,\d+\): error ", re.MULTILINE)


def mono_available() -> bool:
    return shutil.which("mcs") is not None and shutil.which("mono") is not None


@dataclass(frozen=True)
class MonoRun:
    """What Mono made of one program: its standard output, the exception that ended it (empty
    when none), or the compiler's complaint when mcs rejected it."""

    output: str
    error: str = ""
    compile_error: str = ""


def wrap(name: str, source: str) -> str:
    """``source`` inside ``namespace Conformance.<name>``: the ``using`` directives at its top
    move inside the namespace (where C# allows them), comments and blank lines stay put."""
    lines = source.split("\n")
    usings: list[str] = []
    for index, line in enumerate(lines):
        stripped = line.strip()
        if _USING.match(line):
            usings.append(stripped)
            lines[index] = ""
        elif stripped and not stripped.startswith("//"):
            break
    body = "\n".join(lines)
    # The wrapped file keeps the original line numbers: the namespace opens on the first line.
    return f"namespace {ROOT_NAMESPACE}.{name} {{ {' '.join(usings)}\n{body}\n}}\n"


def _compiler_version() -> str:
    done = subprocess.run(["mcs", "--version"], capture_output=True, text=True, check=False)
    return done.stdout.strip()


def _cache_root() -> Path:
    return Path(tempfile.gettempdir()) / "spatialbabel-csharp-conformance"


def _compile(folder: Path, names: list[str]) -> dict[str, str]:
    """Compile ``names`` (``folder/<name>.cs``) and the driver into ``folder/run.exe``; the
    programs mcs rejected, with its messages, are left out (compiled again without them)."""
    rejected: dict[str, str] = {}
    batch = list(names)
    while True:
        command = [
            "mcs",
            *MCS_OPTIONS,
            f"-out:{folder / 'run.exe'}",
            str(folder / "driver.cs"),
            *(str(folder / f"{n}.cs") for n in batch),
        ]
        done = subprocess.run(
            command, cwd=folder, capture_output=True, text=True, timeout=600, check=False
        )
        if done.returncode == 0:
            return rejected
        messages = done.stdout + done.stderr
        failing = {Path(m.group("file")).name for m in _COMPILER_ERROR.finditer(messages)}
        failing &= set(batch)
        if not failing:
            raise RuntimeError(f"mcs failed without naming a program:\n{messages[-4000:]}")
        for name in failing:
            rejected[name] = "\n".join(
                line for line in messages.split("\n") if f"{name}.cs(" in line
            )
        batch = [n for n in batch if n not in failing]


def run_programs(programs: dict[str, str]) -> dict[str, MonoRun]:
    """Compile and run ``programs`` (name -> C# source) on Mono, all in one assembly; cached
    by content."""
    wrapped = {name: wrap(name, source) for name, source in sorted(programs.items())}
    digest = hashlib.sha256()
    for part in (
        DRIVER,
        _compiler_version(),
        *MCS_OPTIONS,
        *(f"{n}\0{s}" for n, s in wrapped.items()),
    ):
        digest.update(part.encode("utf-8"))
        digest.update(b"\1")
    key = digest.hexdigest()[:24]
    cached = _cache_root() / f"{key}.json"
    if cached.exists():
        stored = json.loads(cached.read_text(encoding="utf-8"))
        return {name: MonoRun(**run) for name, run in stored.items()}
    _cache_root().mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="sb_csharp_") as tmp:
        folder = Path(tmp)
        (folder / "driver.cs").write_text(DRIVER, encoding="utf-8")
        for name, source in wrapped.items():
            (folder / f"{name}.cs").write_text(source, encoding="utf-8")
        rejected = _compile(folder, list(wrapped))
        ran = [n for n in wrapped if n not in rejected]
        results = {n: MonoRun("", compile_error=e) for n, e in rejected.items()}
        if ran:
            done = subprocess.run(
                ["mono", str(folder / "run.exe"), str(folder), *ran],
                cwd=folder,
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            if done.returncode != 0:
                raise RuntimeError(f"the conformance driver failed:\n{done.stderr[-4000:]}")
            for name in ran:
                results[name] = MonoRun(
                    (folder / f"{name}.out").read_text(encoding="utf-8"),
                    (folder / f"{name}.error").read_text(encoding="utf-8"),
                )
    # Written whole, then renamed: a concurrent session never reads half a file.
    partial = cached.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(
        json.dumps({n: r.__dict__ for n, r in sorted(results.items())}), encoding="utf-8"
    )
    os.replace(partial, cached)
    return results
