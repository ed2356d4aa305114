"""What the end-to-end test scripts share. Import it after
`sys.path.insert(0, <testsuite directory>)`."""
import shlex
import subprocess
import sys


def must(cmd, what, **kwargs):
    """Runs cmd; on failure exits with FAIL, the command and its output."""
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"FAIL: {what}: {shlex.join(cmd)}\n{result.stdout}"
                 f"{result.stderr}")
    return result
