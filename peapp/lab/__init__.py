"""The training lab: small transformers, identical except for their position encoding, trained
on a synthetic task and evaluated beyond their training length.  Qt-free, plain torch.

* :mod:`peapp.lab.tasks` — copy, reverse, associative recall, character-level LM;
* :mod:`peapp.lab.model` — one model class, the position scheme a parameter (reusing
  ``peapp.encodings``);
* :mod:`peapp.lab.train` — one run: training, evaluation per length ("cannot" for a learned
  table too short);
* :mod:`peapp.lab.grid` — encodings × seeds in single-thread worker processes, saved as they
  finish, with a time estimate;
* :mod:`peapp.lab.results` — the results folder (safetensors + config.json + metrics.json);
* :mod:`peapp.lab.references` — published numbers with their citations.
"""
