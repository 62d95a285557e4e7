"""The ecosystem check: xdevlint's findings on pinned real packages and the stdlib, each reviewed.

Accuracy is judged on real code (docs/DESIGN.md, "Decisions"), as in ruff's ecosystem check.
This downloads pinned wheels from PyPI (`pip download --no-deps`: the packages' own sources,
no dependency trees), unpacks them beside a copy of the running interpreter's standard
library, runs xdevlint over that corpus and writes one stable line per finding to
`ecosystem-findings.txt`. `ecosystem-review.md` gives every finding a verdict (true /
arguable / false) and a reason. A change to the rules then shows as a diff of findings
against the committed file, and the review tells which findings still need a verdict and
whether each rule meets its precision target. bench/README.md says how to review a diff.

    python bench/ecosystem.py                   # run, print the diff, rewrite the findings file
    python bench/ecosystem.py --check           # compare only; exit 1 on a change or a missing verdict
    python bench/ecosystem.py --update-review   # also add/drop review rows (reasons kept), new summary
    python bench/ecosystem.py --hashseed-check  # first run twice under different PYTHONHASHSEED
    python bench/ecosystem.py --half check      # the held-out half: its own findings and review files
    python bench/ecosystem.py --half fresh      # the second held-out set, chosen once the check half was read
    python bench/ecosystem.py --half late       # the third, chosen once the fresh set was read
    python bench/ecosystem.py --half final      # the fourth, chosen once the late set was read
    python bench/ecosystem.py --half last       # the fifth, chosen once the final set was read
    python bench/ecosystem.py --half sixth      # the sixth, chosen once the last set was read
    python bench/ecosystem.py --half seventh    # the seventh, chosen once the sixth set was read
    python bench/ecosystem.py --half eighth     # the eighth, chosen once the seventh set was read
    python bench/ecosystem.py --half ninth      # the ninth, chosen once the eighth set was read
    python bench/ecosystem.py --half tenth      # the tenth, chosen once the ninth set was read
    python bench/ecosystem.py --half eleventh   # the eleventh, chosen once the tenth set was read
    python bench/ecosystem.py --half twelfth    # the twelfth, chosen once the eleventh set was read
    python bench/ecosystem.py --half thirteenth # the thirteenth, chosen once the twelfth set was read
    python bench/ecosystem.py --half fourteenth # the fourteenth, chosen once the thirteenth set was read
    python bench/ecosystem.py --half fifteenth  # the fifteenth, chosen once the fourteenth set was read
    python bench/ecosystem.py --half sixteenth  # the sixteenth, chosen once the fifteenth set was read

The corpus has two halves. The *tuned* half (`PINS` and the stdlib) is the one rule changes
are read against, finding by finding. The *check* half (`CHECK_PINS`) was chosen before the
rename and leak rules were reworked and is read only when a piece of work is done: a rule
change that helps the tuned half and hurts the check half is a regression, and precision
counts on the check half tell whether a rule generalises.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

BENCH = Path(__file__).resolve().parent
FINDINGS_FILE = BENCH / "ecosystem-findings.txt"
REVIEW_FILE = BENCH / "ecosystem-review.md"
CHECK_FINDINGS_FILE = BENCH / "ecosystem-check-findings.txt"
CHECK_REVIEW_FILE = BENCH / "ecosystem-check-review.md"
FRESH_FINDINGS_FILE = BENCH / "ecosystem-fresh-findings.txt"
FRESH_REVIEW_FILE = BENCH / "ecosystem-fresh-review.md"
LATE_FINDINGS_FILE = BENCH / "ecosystem-late-findings.txt"
LATE_REVIEW_FILE = BENCH / "ecosystem-late-review.md"
FINAL_FINDINGS_FILE = BENCH / "ecosystem-final-findings.txt"
FINAL_REVIEW_FILE = BENCH / "ecosystem-final-review.md"
LAST_FINDINGS_FILE = BENCH / "ecosystem-last-findings.txt"
LAST_REVIEW_FILE = BENCH / "ecosystem-last-review.md"
SIXTH_FINDINGS_FILE = BENCH / "ecosystem-sixth-findings.txt"
SIXTH_REVIEW_FILE = BENCH / "ecosystem-sixth-review.md"
SEVENTH_FINDINGS_FILE = BENCH / "ecosystem-seventh-findings.txt"
SEVENTH_REVIEW_FILE = BENCH / "ecosystem-seventh-review.md"
EIGHTH_FINDINGS_FILE = BENCH / "ecosystem-eighth-findings.txt"
EIGHTH_REVIEW_FILE = BENCH / "ecosystem-eighth-review.md"
NINTH_FINDINGS_FILE = BENCH / "ecosystem-ninth-findings.txt"
NINTH_REVIEW_FILE = BENCH / "ecosystem-ninth-review.md"
TENTH_FINDINGS_FILE = BENCH / "ecosystem-tenth-findings.txt"
TENTH_REVIEW_FILE = BENCH / "ecosystem-tenth-review.md"
ELEVENTH_FINDINGS_FILE = BENCH / "ecosystem-eleventh-findings.txt"
ELEVENTH_REVIEW_FILE = BENCH / "ecosystem-eleventh-review.md"
TWELFTH_FINDINGS_FILE = BENCH / "ecosystem-twelfth-findings.txt"
TWELFTH_REVIEW_FILE = BENCH / "ecosystem-twelfth-review.md"
THIRTEENTH_FINDINGS_FILE = BENCH / "ecosystem-thirteenth-findings.txt"
THIRTEENTH_REVIEW_FILE = BENCH / "ecosystem-thirteenth-review.md"
FOURTEENTH_FINDINGS_FILE = BENCH / "ecosystem-fourteenth-findings.txt"
FOURTEENTH_REVIEW_FILE = BENCH / "ecosystem-fourteenth-review.md"
FIFTEENTH_FINDINGS_FILE = BENCH / "ecosystem-fifteenth-findings.txt"
FIFTEENTH_REVIEW_FILE = BENCH / "ecosystem-fifteenth-review.md"
SIXTEENTH_FINDINGS_FILE = BENCH / "ecosystem-sixteenth-findings.txt"
SIXTEENTH_REVIEW_FILE = BENCH / "ecosystem-sixteenth-review.md"
SEVENTEENTH_FINDINGS_FILE = BENCH / "ecosystem-seventeenth-findings.txt"
SEVENTEENTH_REVIEW_FILE = BENCH / "ecosystem-seventeenth-review.md"
EIGHTEENTH_FINDINGS_FILE = BENCH / "ecosystem-eighteenth-findings.txt"
EIGHTEENTH_REVIEW_FILE = BENCH / "ecosystem-eighteenth-review.md"
NINETEENTH_FINDINGS_FILE = BENCH / "ecosystem-nineteenth-findings.txt"
NINETEENTH_REVIEW_FILE = BENCH / "ecosystem-nineteenth-review.md"
TWENTIETH_FINDINGS_FILE = BENCH / "ecosystem-twentieth-findings.txt"
TWENTIETH_REVIEW_FILE = BENCH / "ecosystem-twentieth-review.md"
TWENTY_FIRST_FINDINGS_FILE = BENCH / "ecosystem-twenty-first-findings.txt"
TWENTY_FIRST_REVIEW_FILE = BENCH / "ecosystem-twenty-first-review.md"
TWENTY_SECOND_FINDINGS_FILE = BENCH / "ecosystem-twenty-second-findings.txt"
TWENTY_SECOND_REVIEW_FILE = BENCH / "ecosystem-twenty-second-review.md"
TWENTY_THIRD_FINDINGS_FILE = BENCH / "ecosystem-twenty-third-findings.txt"
TWENTY_THIRD_REVIEW_FILE = BENCH / "ecosystem-twenty-third-review.md"
TWENTY_FOURTH_FINDINGS_FILE = BENCH / "ecosystem-twenty-fourth-findings.txt"
TWENTY_FOURTH_REVIEW_FILE = BENCH / "ecosystem-twenty-fourth-review.md"
TWENTY_FIFTH_FINDINGS_FILE = BENCH / "ecosystem-twenty-fifth-findings.txt"
TWENTY_FIFTH_REVIEW_FILE = BENCH / "ecosystem-twenty-fifth-review.md"
TWENTY_SIXTH_FINDINGS_FILE = BENCH / "ecosystem-twenty-sixth-findings.txt"
TWENTY_SIXTH_REVIEW_FILE = BENCH / "ecosystem-twenty-sixth-review.md"
TWENTY_SEVENTH_FINDINGS_FILE = BENCH / "ecosystem-twenty-seventh-findings.txt"
TWENTY_SEVENTH_REVIEW_FILE = BENCH / "ecosystem-twenty-seventh-review.md"
DEFAULT_CORPUS = Path("~/.cache/xdevlint-ecosystem")

PINS: Tuple[str, ...] = (
    "accelerate==1.15.0",
    "conda-package-handling==2.6.0",
    "datasets==5.2.0",
    "diffusers==0.42.1",
    "dvc==3.67.1",
    "fsspec==2026.9.0",
    "huggingface_hub==2.4.0",
    "lightning==2.6.6",
    "pip==26.3",
    "poetry==2.5.1",
    "pre-commit==4.7.0",
    "tinygrad==0.14.0",
    "transformers==5.24.0",
    "virtualenv==21.15.11",
    "wandb==0.31.0",
)
#: The held-out half, chosen on 2026-12-04 before the rename-proof and leak-rule work
#: (issues 30 and 31) changed a rule: current releases of packages that stage, cache,
#: download or atomically write files, none of them named in those issues. Its findings
#: are reviewed only when such work is done (bench/README.md).
CHECK_PINS: Tuple[str, ...] = (
    "ansible-core==2.19.14",
    "black==26.10.1",
    "clearml==2.1.12",
    "cookiecutter==2.7.1",
    "coverage==7.18.0",
    "diskcache==5.6.3",
    "distributed==2026.8.0",
    "django==5.2.19",
    "dulwich==1.2.21",
    "evaluate==0.4.6",
    "gdown==6.5.1",
    "gradio==6.31.0",
    "ipython==9.18.1",
    "joblib==1.6.0",
    "jupyter_server==2.21.1",
    "keras==3.15.1",
    "mypy==2.4.1",
    "nbconvert==7.17.2",
    "pipx==1.18.4",
    "pooch==1.9.0",
    "pytest==9.2.0",
    "s3transfer==0.19.3",
    "scikit-learn==1.9.1",
    "scrapy==2.19.0",
    "setuptools==84.2.1",
    "timm==1.0.31",
    "tox==4.67.17",
    "ultralytics==8.4.190",
)
#: A second held-out set, chosen on 2026-12-04 once the check half had been read (its review
#: led to rule changes, so it no longer tells whether a rule generalises): current releases
#: of packages that build, download, cache or install files. No rule change was looked at
#: against them; their findings were read once, after the last one.
FRESH_PINS: Tuple[str, ...] = (
    "conan==2.34.0",
    "hatch==1.18.2",
    "kedro==1.7.0",
    "luigi==3.8.1",
    "mlflow-skinny==3.18.0",
    "nltk==3.10.4",
    "pdm==2.29.4",
    "pex==2.105.2",
    "pyinstaller==6.22.3",
    "sphinx==9.0.4",
    "twine==7.0.0",
    "yt-dlp==2026.11.23",
)
#: A third held-out set, chosen on 2026-12-05 once the fresh set had been read (its reading
#: named the false findings the next rule changes aim at): the newest releases that day of
#: packages that download, cache, build, checkpoint or install files, in none of the lists
#: above nor named in issues 30 and 31. Its findings are read once, after the last rule change.
LATE_PINS: Tuple[str, ...] = (
    "astropy==8.0.2",
    "beets==2.14.1",
    "bentoml==1.4.40",
    "build==1.6.1",
    "certbot==5.8.0",
    "cibuildwheel==4.3.5",
    "datasette==0.65.5",
    "fastai==2.8.12",
    "gallery-dl==1.32.18",
    "imageio==2.38.2",
    "kaggle==2.2.5",
    "meson==1.12.1",
    "nox==2026.10.20",
    "optuna==5.1.0",
    "orbax-checkpoint==0.12.8",
    "peft==0.21.2",
    "sentence-transformers==6.3.0",
    "snakemake==9.27.1",
    "spacy==3.8.18",
    "streamlink==8.6.3",
)
#: A fourth held-out set, chosen on 2026-12-05 once the late set had been read (one change was
#: drawn from that reading): the newest releases that day of packages that download, cache,
#: template, checkpoint or install files, in none of the lists above nor named in issues 30
#: and 31. Its findings are recorded unread and read once, after the last rule change.
FINAL_PINS: Tuple[str, ...] = (
    "astroquery==0.4.11",
    "briefcase==0.4.7",
    "cached-path==1.8.10",
    "cachecontrol==0.14.4",
    "copier==9.19.1",
    "datalad==1.7.1",
    "flair==0.15.1",
    "hypothesis==6.170.27",
    "jedi==0.20.1",
    "jinja2==3.1.6",
    "kagglehub==1.0.3",
    "metaflow==2.19.39",
    "modelscope==1.40.2",
    "openml==0.15.1",
    "papermill==2.7.0",
    "parso==0.8.7",
    "pip-audit==2.10.1",
    "pyvista==0.49.2",
    "requests-cache==1.3.3",
    "stanza==1.15.0",
    "tensorflow-datasets==4.9.10",
)
#: A fifth held-out set, chosen on 2026-12-05 once the final set had been read (one change was
#: drawn from that reading, e97a383): the newest releases that day of packages that stage,
#: cache, sync, download, build or atomically write files, in none of the lists above nor named
#: in issues 30 and 31. Its findings are recorded unread at e97a383 and read once, after the
#: last rule change of the round that follows.
LAST_PINS: Tuple[str, ...] = (
    "celery==5.7.0",
    "dask==2026.8.0",
    "docker==7.2.0",
    "dvc-data==3.18.3",
    "dvc-objects==5.2.0",
    "filelock==4.3.2",
    "gcsfs==2026.10.1",
    "gitpython==3.2.1",
    "instaloader==4.16",
    "jax==0.10.2",
    "jupyter-core==5.9.1",
    "jupytext==1.19.6",
    "matplotlib==3.11.2",
    "mkdocs==1.6.1",
    "paramiko==5.1.0",
    "pelican==4.12.0",
    "pip-tools==7.7.0",
    "pipenv==2026.10.3",
    "platformio==6.2.0",
    "pylint==4.1.5",
    "s3fs==2026.9.0",
    "sacred==0.8.7",
    "scmrepo==3.6.2",
    "scons==4.11.1",
    "smart-open==9.0.4",
    "sphinx-gallery==0.22.1",
    "streamlit==1.67.0",
    "tensorboard==2.21.0",
    "xarray==2026.9.0",
    "zarr==3.1.6",
)
#: A sixth held-out set, chosen on 2026-12-05 once the last set had been read (no change was
#: drawn from it before this list was committed): the newest releases that day of packages that
#: stage, download, sync, build, convert or rewrite files, in none of the lists above nor named
#: in issues 30 and 31. Its findings are recorded unread at 2fba220 and read once, after the
#: last rule change of the round that follows.
SIXTH_PINS: Tuple[str, ...] = (
    "auditwheel==6.8.2",
    "awscli==1.46.3",
    "b2sdk==2.13.2",
    "bokeh==3.9.2",
    "cloudpathlib==0.26.0",
    "conda-lock==4.0.3",
    "cwltool==3.3.20260925135507",
    "doit==0.37.0",
    "fs==2.4.16",
    "ipykernel==7.4.0",
    "jupyter-client==8.10.0",
    "minio==7.2.20",
    "moviepy==2.2.1",
    "nilearn==0.14.1",
    "ocrmypdf==17.13.0",
    "osmnx==2.1.1",
    "parsl==2026.10.26",
    "plumbum==2.0.2",
    "pydub==0.25.1",
    "rope==1.15.2",
    "sagemaker==3.27.0",
    "scikit-build-core==1.1.2",
    "shiv==1.0.8",
    "tensorboardX==2.6.5",
    "toil==9.6.0",
    "unstructured==0.27.35",
    "weasel==1.0.1",
    "webdriver-manager==4.1.2",
    "wheel==0.48.0",
    "yapf==0.43.0",
)
#: A seventh held-out set, chosen on 2026-12-05 once the sixth set had been read (one change
#: was drawn from that reading, 1adc142): the newest releases that day of packages that
#: download, convert, sync, build or cache files, in none of the lists above nor named in
#: issues 30 and 31. Its findings are recorded unread at cc40c7d and read once, after the
#: last rule change of the round that follows.
SEVENTH_PINS: Tuple[str, ...] = (
    "autopep8==2.3.2",
    "azure-storage-blob==12.31.1",
    "conda-pack==0.9.2",
    "delocate==0.13.0",
    "easyocr==1.7.2",
    "flit-core==4.2.0",
    "git-filter-repo==2.47.0",
    "gluonts==0.17.0",
    "google-cloud-storage==3.17.1",
    "intake==2.0.9",
    "isort==9.0.2",
    "keyring==25.7.0",
    "lektor==3.3.14",
    "librosa==0.11.0",
    "meson-python==0.22.1",
    "mne==1.13.2",
    "nbclient==0.11.0",
    "nibabel==5.4.2",
    "nikola==8.3.3",
    "open-clip-torch==3.3.0",
    "panel==1.9.4",
    "poetry-core==2.5.0",
    "pydicom==3.0.2",
    "pytubefix==11.2.1",
    "selenium==4.53.0",
    "sphinx-autobuild==2025.8.25",
    "spotdl==4.6.0",
    "sunpy==7.0.5",
    "tifffile==2026.3.3",
    "you-get==0.4.1743",
)
#: An eighth held-out set, chosen on 2026-12-06 once the seventh set had been read (no change
#: was drawn from that reading): the newest releases that day of packages that back up, sync,
#: download, build, convert or rewrite files, in none of the lists above nor named in issues 30
#: and 31 or in bench/realbugs.txt. Its findings are recorded unread before the round of rule
#: changes that follows and read once, after its last change.
EIGHTH_PINS: Tuple[str, ...] = (
    "cartopy==0.26.0",
    "cdsapi==0.7.7",
    "chalice==1.34.0",
    "cx-freeze==8.7.3",
    "darker==3.0.0",
    "docformatter==1.7.8",
    "duplicity==3.2.1",
    "earthaccess==0.17.0",
    "herbie-data==2026.10.0",
    "imageio-ffmpeg==0.8.1",
    "internetarchive==5.12.1",
    "jupyter-cache==1.0.1",
    "jupyterlite-core==0.8.6",
    "mkdocs-material==9.8.2",
    "nbgrader==0.9.6",
    "nbqa==1.9.1",
    "pdf2image==1.17.0",
    "pdoc==16.0.0",
    "pybedtools==0.12.1",
    "pyinfra==3.10.0",
    "pypandoc==1.17",
    "python-gnupg==0.5.7",
    "rq==3.0.0",
    "s3cmd==2.4.0",
    "seleniumbase==4.56.4",
    "sqlfluff==4.5.0",
    "west==1.5.0",
    "xlsxwriter==3.3.1",
    "zappa==0.63.0",
)
#: A ninth held-out set, chosen on 2026-12-06 once the eighth set had been read: the newest
#: releases that day of packages that download, cache, sync, back up, tag or convert files, in
#: none of the lists above nor named in issues 30 and 31 or in bench/realbugs.txt. Its findings
#: are recorded unread before the round of rule changes that follows and read once, after its
#: last change.
NINTH_PINS: Tuple[str, ...] = (
    "adlfs==2026.8.0",
    "ansible-runner==2.4.3",
    "archivebox==0.7.4",
    "aws-sam-cli==1.170.0",
    "beaker==1.14.1",
    "borgmatic==2.1.10",
    "cachelib==0.17.0",
    "calibreweb==0.6.27",
    "camelot-py==2.0.0",
    "comictagger==1.5.5",
    "dogpile.cache==1.5.0",
    "eodag==4.10.1",
    "esphome==2026.6.5",
    "eyed3==0.9.9",
    "flask-caching==2.5.1",
    "flexget==3.22.8",
    "getmail6==6.20.2",
    "grayskull==3.2.0",
    "lightkurve==2.6.0",
    "magic-wormhole==0.24.0",
    "molecule==26.10.0",
    "multiqc==1.35",
    "nf-core==4.2.1",
    "pdfkit==1.0.0",
    "pyload-ng==0.5.0b3.dev101",
    "python-for-android==2026.5.9",
    "reflex==0.10.1",
    "sickchill==2024.3.1",
    "speechbrain==1.1.2",
    "tensorflow-hub==0.16.1",
    "vdirsyncer==0.21.0",
)
#: A tenth held-out set, chosen on 2026-12-06 once the ninth set had been read: the newest
#: releases that day of packages that store, upload, rotate, trash, extract or sync files (web
#: upload handlers, log rotation, calendars, object stores, archivers), in none of the lists
#: above nor named in issues 30 and 31 or in bench/realbugs.txt. Its findings are recorded
#: unread before the round of rule changes that follows and read once, after its last change.
TENTH_PINS: Tuple[str, ...] = (
    "boltons==26.2.0",
    "bottle==0.13.5",
    "bump-my-version==1.8.1",
    "cachier==4.2.0",
    "concurrent-log-handler==0.9.31",
    "django-import-export==4.4.3",
    "django-storages==1.14.6",
    "easy-thumbnails==2.10.1",
    "flytekit==1.16.31",
    "gunicorn==27.0.1",
    "hishel==2.0.0",
    "khal==0.14.1",
    "loguru==0.7.3",
    "octoprint==1.11.8",
    "organize-tool==3.3.0",
    "patool==4.0.7",
    "py7zr==1.1.4",
    "pystow==0.10.3",
    "radicale==3.9.0",
    "roboflow==1.7.3",
    "send2trash==2.2.0",
    "sigal==2.6.1",
    "starlette==1.10.0",
    "subliminal==2.8.0",
    "supervisor==4.3.0",
    "thonny==5.0.1",
    "todoman==4.7.0",
    "torchgeo==0.8.1",
    "twisted==26.10.0",
    "webassets==3.0.0",
    "werkzeug==3.1.9",
    "whitenoise==6.12.0",
    "xandikos==0.4.10",
    "zodb==6.4",
)
#: An eleventh held-out set, chosen on 2026-12-06 once the tenth set had been read: the newest
#: releases that day of packages that write, lock, cache, archive, upload or rewrite files
#: (atomic writers, lock files, source rewriters and release tools, notebook builders, web
#: frameworks, cloud-drive clients, downloaders), in none of the lists above nor named in issues
#: 30 and 31 or in bench/realbugs.txt. Its findings are recorded unread before the round of rule
#: changes that follows and read once, after its last change.
ELEVENTH_PINS: Tuple[str, ...] = (
    "atomicwrites==1.4.0",
    "autoflake==2.4.0",
    "b2==5.0.2",
    "cherrypy==18.10.0",
    "codespell==2.4.3",
    "commitizen==4.19.3",
    "cruft==2.16.0",
    "dropbox==12.2.5",
    "dvclive==3.49.1",
    "fasteners==0.20",
    "faster-whisper==1.2.1",
    "flask==3.1.3",
    "flynt==1.0.6",
    "httpie==3.2.4",
    "jupyter-book==2.1.7",
    "jupyterhub==6.1.1",
    "libarchive-c==5.3",
    "mutagen==1.48.1",
    "myst-nb==1.4.0",
    "nbdime==4.0.4",
    "nbstripout==0.9.1",
    "path==17.1.1",
    "pickleshare==0.7.5",
    "plexapi==4.18.3",
    "portalocker==4.4.2",
    "pre-commit-hooks==6.0.0",
    "pydrive2==1.21.3",
    "pystac-client==0.9.1",
    "python-semantic-release==10.7.0",
    "pyupgrade==3.22.0",
    "rarfile==4.5",
    "safer==6.1.0",
    "sanic==25.12.1",
    "scdl==3.0.9",
    "sentinelsat==1.2.1",
    "streamrip==2.1.0",
    "supervision==0.31.2",
    "tbump==6.11.0",
    "torchmetrics==1.9.0",
    "tornado==6.6.1",
    "towncrier==26.9.0",
    "webob==1.8.11",
    "zict==3.0.0",
)
#: A twelfth held-out set, chosen on 2026-12-06 once the eleventh set had been read: the newest
#: releases that day of packages that render, convert, transfer, serve or package files (PDF
#: and office writers, OCR and table extractors, SSH/FTP/WebDAV clients and servers, Django
#: file apps, wheel installers and version tools, weather-data fetchers), in none of the lists
#: above nor named in issues 30 and 31 or in bench/realbugs.txt. Its findings are recorded unread
#: before the round of rule changes that follows and read once, after its last change.
TWELFTH_PINS: Tuple[str, ...] = (
    "asyncssh==2.24.1",
    "bumpver==2026.1132",
    "cfgrib==0.9.15.1",
    "check-wheel-contents==0.6.3",
    "django-compressor==4.7.0",
    "django-dbbackup==5.4.0",
    "django-imagekit==6.1.1",
    "ffmpeg-python==0.2.0",
    "flit==4.2.0",
    "ftputil==5.2.0",
    "glances==4.5.8",
    "img2pdf==0.6.3",
    "installer==1.1.0",
    "keyrings.alt==5.0.2",
    "metpy==1.7.1",
    "openpyxl==3.1.5",
    "pdfminer-six==20260107",
    "pdfplumber==0.11.11",
    "pexpect==4.9.0",
    "pipdeptree==4.2.16",
    "poetry-dynamic-versioning==1.10.1",
    "pynsist==2.8",
    "pypdf==7.1.1",
    "pytesseract==0.3.13",
    "python-docx==1.2.0",
    "reportlab==5.1.0",
    "scp==0.16.2",
    "setuptools-scm==10.3.4",
    "siphon==0.11.0",
    "sorl-thumbnail==13.4.0",
    "tabula-py==2.10.0",
    "voila==0.5.13",
    "weasyprint==70.0",
    "wsgidav==4.3.5",
    "xhtml2pdf==0.2.28",
)
#: A thirteenth held-out set, chosen on 2026-12-06 once the twelfth set had been read: the newest
#: releases that day of packages that write documents and archives, convert scientific data,
#: persist queues and caches, or serve and mirror packages and build artifacts (package indexes,
#: CI workers), in none of the lists above nor named in issues 30 and 31 or in
#: bench/realbugs.txt. Its findings are recorded unread before the round of rule changes that
#: follows and read once, after its last change.
THIRTEENTH_PINS: Tuple[str, ...] = (
    "anndata==0.12.19",
    "bagit==1.8.1",
    "bandersnatch==6.8.0",
    "buildbot-worker==4.3.0",
    "buildbot==4.3.0",
    "cachetools-async==0.0.5",
    "conan-server==2.33.0",
    "dcm2bids==3.3.1",
    "devpi-server==6.20.3",
    "devpi-web==5.1.1",
    "docxtpl==0.20.2",
    "filetype==1.2.0",
    "heudiconv==1.5.1",
    "imgkit==1.2.3",
    "jsonpickle==4.1.4",
    "magic-wormhole-mailbox-server==0.8.0",
    "markdown-pdf==1.13.3",
    "mne-bids==0.20.0",
    "nipype==1.11.0",
    "persist-queue==1.1.0",
    "proxpi==1.3.1",
    "pydicom-seg==0.4.1",
    "pymupdf==2.1",
    "pypiserver==2.4.2",
    "python-pptx==1.0.2",
    "pyzipper==0.4.0",
    "scanpy==1.11.5",
    "shelved-cache==0.5.0",
    "simple-repository==0.11.1",
    "tqdm-joblib==0.0.5",
    "unrar==0.4",
    "xmltodict==1.0.4",
)
#: A fourteenth held-out set, chosen on 2026-12-06 once the thirteenth set had been read: the
#: newest releases that day (youtube-dl's last) of packages that convert and store scientific and
#: geospatial data, convert models, fetch media, build packages and docs, or fake and drive
#: filesystems and devices, in none of the lists above nor named in issues 30 and 31 or in
#: bench/realbugs.txt. Its findings are recorded unread before the round of rule changes that
#: follows and read once, after its last change.
FOURTEENTH_PINS: Tuple[str, ...] = (
    "ansible-lint==26.10.1",
    "awswrangler==3.17.1",
    "bandit==1.9.4",
    "coremltools==9.0",
    "demucs==4.1.0",
    "docutils==0.23.1",
    "geopandas==1.2.0",
    "h5py==3.16.0",
    "hatchling==1.33.0",
    "invoke==3.0.3",
    "jupyterlab==4.6.6",
    "leafmap==0.63.1",
    "meshio==5.3.5",
    "mike==2.2.0",
    "mpremote==1.29.0",
    "osc==1.28.0",
    "pdm-backend==2.5.0",
    "pikepdf==10.18.0",
    "pyannote-audio==4.0.7",
    "pydantic-settings==2.16.3",
    "pyfakefs==6.3.2",
    "pyogrio==0.13.0",
    "pyresample==1.35.0",
    "PyScaffold==4.6",
    "python-debian==1.1.1",
    "satpy==0.60.0",
    "sentinelhub==3.12.0",
    "svtplay-dl==1.9.5",
    "tf2onnx==1.17.0",
    "torchvision==0.29.1",
    "tqdm==4.70.1",
    "trimesh==5.2.0",
    "wand==0.7.2",
    "wradlib==2.9.6",
    "xonsh==0.25.0",
    "youtube-dl==2021.12.17",
)
#: A fifteenth held-out set, chosen on 2026-12-06 once the fourteenth set had been read: the
#: newest releases that day of packages that archive the web, sync and rename media, store
#: checkpoints and snapshots, serve and thumbnail files, version trees, and wrap paths and
#: file I/O, in none of the lists above nor named in issues 30 and 31 or in
#: bench/realbugs.txt. Its findings are recorded unread before the round of rule changes that
#: follows and read once, after its last change.
FIFTEENTH_PINS: Tuple[str, ...] = (
    "aiofiles==25.1.0",
    "aiohttp==3.14.5",
    "ase==3.29.0",
    "breezy==3.3.23",
    "deemix==3.6.6",
    "fabric==3.2.3",
    "ffmpeg-normalize==1.43.0",
    "huey==3.5.4",
    "jupyter-repo2docker==2026.4.0",
    "locust==2.47.0",
    "mdanalysis==2.11.0",
    "mercurial==7.2.4",
    "mitmproxy==11.0.2",
    "mnamer==2.5.5",
    "Mopidy==3.4.2",
    "nbdev==3.3.26",
    "nbformat==5.11.1",
    "optimum==2.3.0",
    "osxphotos==0.77.2",
    "pybids==0.22.0",
    "pymatgen==2026.10.24",
    "pySmartDL==1.3.4",
    "pytest-regressions==2.11.0",
    "pytorch-ignite==0.5.5",
    "pywb==2.10.0",
    "pywikibot==11.9.0",
    "sentry-sdk==2.76.0",
    "skorch==1.4.0",
    "synapseclient==4.14.0",
    "syrupy==7.0.3",
    "thumbor==7.8.0",
    "tubeup==2025.9.23",
    "universal-pathlib==0.3.11",
    "wagtail==8.0.1",
    "warcio==1.8.1",
    "watchdog==7.1.1",
)
#: A sixteenth held-out set, chosen on 2026-12-06 once the fifteenth set had been read and
#: after that round's last rule change: the newest releases that day of packages that read
#: and write images, audio, geodata and documents, run task queues and web servers, fetch
#: and archive, and build or version projects, in none of the lists above nor named in
#: issues 30 and 31 or in bench/realbugs.txt. Its findings are recorded unread and read once.
SIXTEENTH_PINS: Tuple[str, ...] = (
    "APScheduler==3.11.3",
    "aria2p==0.12.3",
    "arq==0.28.0",
    "biopython==1.88",
    "dramatiq==2.2.1",
    "dunamai==1.26.5",
    "emcee==3.1.6",
    "ExifRead==3.5.1",
    "fiona==1.10.1",
    "fpdf2==2.8.9",
    "guessit==4.4.0",
    "httpx==0.29.0",
    "Hypercorn==0.18.0",
    "ImageHash==4.3.2",
    "jupyterlab-server==2.28.1",
    "mediafile==0.17.0",
    "mmengine==0.10.7",
    "notebook==7.6.5",
    "onnx==1.23.2",
    "pillow==13.0.0",
    "pipreqs==0.5.0",
    "ploomber==0.23.3",
    "PyExifTool==0.5.6",
    "pygit2==1.21.0",
    "pyramid==2.1",
    "pystac==1.15.2",
    "rasterio==1.4.4",
    "requests-toolbelt==1.0.0",
    "rioxarray==0.19.0",
    "scikit-image==0.26.0",
    "soundfile==0.14.0",
    "torchaudio==2.11.1",
    "transmission-rpc==7.0.12",
    "waitress==3.0.2",
    "watchfiles==1.3.0",
    "waybackpack==0.6.4",
)
#: A seventeenth held-out set, chosen on 2026-12-06 once the sixteenth set had been read and
#: before that session's first rule change: the newest releases that day of packages that
#: cache compiled code and datasets, stream and shard training data, download models and
#: browsers, render video, scan and back up, in none of the lists above nor named in issues
#: 30 and 31 or in bench/realbugs.txt. Its findings are recorded unread and read once.
SEVENTEENTH_PINS: Tuple[str, ...] = (
    "basicsr==1.3.3.3",
    "beancount==3.2.3",
    "checkov==3.3.30",
    "chromadb==1.5.9",
    "climetlab==0.24.0",
    "comet_ml==3.58.8",
    "Cython==3.3.1",
    "deepface==0.0.103",
    "detect-secrets==1.5.0",
    "docling==2.143.0",
    "earthkit-data==1.3.1",
    "fiftyone==1.22.1",
    "hydra-core==1.3.8",
    "icloudpd==1.32.3",
    "jrnl==4.6",
    "kaleido==1.5.2",
    "kubernetes==37.0.3",
    "litdata==0.2.76",
    "manim==0.22.0",
    "marimo==0.25.2",
    "mosaicml-streaming==0.13.0",
    "napari==0.9.2",
    "nemo_toolkit==3.0.0",
    "nodeenv==1.12.0",
    "numba==0.68.1",
    "paddleocr==3.7.0",
    "pykeepass==4.2.0",
    "pyppeteer==2.0.0",
    "python-doctr==1.1.0",
    "qdrant-client==1.20.0",
    "rembg==2.0.86",
    "safety==3.8.1",
    "scancode-toolkit==32.5.0",
    "scikit-build==0.19.1",
    "spyder==6.1.8",
    "undetected-chromedriver==3.1.6",
    "webdataset==1.0.2",
    "whitebox==2.3.6",
    "Whoosh==2.7.4",
    "zenml==0.98.0",
    "zimscraperlib==4.0.0",
)
#: An eighteenth held-out set, chosen on 2026-12-07 once the seventeenth set had been read and
#: before that session's first rule change: the newest releases for Python 3.11 that day of
#: packages that run workflow and training platforms, home and chat servers, media and
#: download tools, geodata and imaging pipelines, in none of the lists above nor named in
#: issues 30 and 31 or in bench/realbugs.txt. Its findings are recorded unread and read once.
EIGHTEENTH_PINS: Tuple[str, ...] = (
    "aim==3.29.1",
    "apache-airflow-core==3.3.2",
    "autogluon.core==1.6.3",
    "bdfr==2.6.2",
    "build123d==0.13.0",
    "cyclonedx-bom==7.5.0",
    "dash==4.4.1",
    "deepchem==2.8.0",
    "deluge==2.2.0",
    "determined==0.38.1",
    "earthengine-api==1.7.50",
    "errbot==6.2.1",
    "geemap==0.37.2",
    "haystack-ai==3.4.1",
    "homeassistant==2024.3.3",
    "ipyparallel==9.2.0",
    "jenkins-job-builder==6.5.0",
    "kfp==2.17.3",
    "kraken==7.1.1",
    "langchain-community==0.4.2",
    "litestar==2.25.0",
    "llama-index-core==0.14.25",
    "mailman==3.3.10",
    "matrix-synapse==1.163.2",
    "mlrun==1.12.1",
    "mmdet==3.3.0",
    "moto==5.2.6",
    "neptune==1.14.0.post2",
    "nicotine-plus==3.3.11",
    "niworkflows==1.14.5",
    "pycaret==3.3.2",
    "pyproj==3.7.2",
    "pytest-testinfra==10.2.2",
    "ray==2.60.0",
    "scenedetect==0.7.2",
    "scvi-tools==1.4.2",
    "sktime==1.2.0",
    "snscrape==0.7.0.20230622",
    "sopel==8.0.4",
    "spleeter==2.4.2",
    "vidgear==0.3.6",
)
#: A nineteenth held-out set, chosen on 2026-12-07 once the eighteenth set had been read and
#: after that session's last rule change: the newest releases for Python 3.11 that day of
#: packages that run data pipelines and warehouses, model serving and labelling, vector
#: stores, UI frameworks, cloud SDKs, neuroscience and astronomy data and gradient boosting,
#: in none of the lists above nor named in issues 30 and 31 or in bench/realbugs.txt. Its
#: findings are recorded unread and read once.
NINETEENTH_PINS: Tuple[str, ...] = (
    "airbyte-cdk==7.39.1",
    "catboost==1.2.10",
    "cellxgene-census==1.18.0",
    "cutadapt==5.2",
    "cvat-sdk==2.80.0",
    "dandi==0.81.0",
    "dask-ml==2025.1.0",
    "dbt-core==1.12.6",
    "docker-compose==1.29.2",
    "espnet==202511",
    "great-expectations==1.24.1",
    "gwpy==4.1.0",
    "hdmf==6.2.0",
    "kserve==0.21.0",
    "label-studio==1.23.2",
    "lakefs-spec==0.15.1",
    "langchain-core==1.8.4",
    "lightgbm==4.7.0",
    "localstack-core==2026.3.0",
    "meltano==4.4.1",
    "mlserver==1.7.1",
    "modin==0.37.1",
    "nicegui==3.18.0",
    "obspy==1.5.1",
    "openstacksdk==4.22.0",
    "petastorm==0.13.1",
    "playwright==1.65.3",
    "pulumi==3.272.0",
    "pydra==0.25",
    "pymilvus==3.0.2",
    "pynwb==4.2.0",
    "python-swiftclient==4.11.0",
    "pyvo==1.10.0",
    "singer-sdk==0.54.9",
    "soda-core==4.28.0",
    "splinter==0.21.0",
    "sqlmesh==0.236.4",
    "squidpy==1.8.2",
    "textual==8.2.8",
    "tritonclient==2.73.0",
    "txtai==9.14.0",
    "weaviate-client==4.24.1",
    "whisperx==3.8.6",
    "xgboost==3.2.0",
)
#: A twentieth held-out set, chosen on 2026-12-07 once the nineteenth set had been read and
#: before the project index (measured on the read sets, not landed): the newest releases for Python 3.11 that
#: day of packages for web APIs and servers, databases and migrations, message queues, cloud
#: SDKs and serverless platforms, LLM clients and agents, plotting, synthetic data, packaging
#: and build tools, image augmentation and process pools, in none of the lists above nor
#: named in issues 30 and 31 or in bench/realbugs.txt. Its findings are recorded unread and
#: read once.
TWENTIETH_PINS: Tuple[str, ...] = (
    "albumentations==2.0.8",
    "alembic==1.20.1",
    "azureml-core==1.61.0.post4",
    "boto3==1.44.18",
    "chainlit==2.12.0",
    "cloudpickle==3.1.3",
    "crewai==1.15.30",
    "dipy==1.12.1",
    "faker==40.63.0",
    "fastapi==0.165.0",
    "gradio-client==2.7.2",
    "guildai==0.9.0",
    "holoviews==1.23.2",
    "hyperopt==0.3.0",
    "kombu==5.7.0",
    "kornia==0.9.0",
    "litellm==1.110.2",
    "loky==3.7.0",
    "mage-ai==0.9.80",
    "mako==1.4.3",
    "maturin==1.16.0",
    "mlem==0.4.14",
    "modal==1.6.4",
    "nbsphinx==0.9.8",
    "netcdf4==1.7.5.1.post1",
    "openllm==0.6.30",
    "pandera==0.35.0",
    "pathos==0.3.5",
    "petl==1.7.30",
    "plotly==7.1.0",
    "polars==2.1.0",
    "prowler==5.46.0",
    "pyodide-build==0.25.1",
    "pytest-xdist==3.8.0",
    "python-lsp-server==1.15.0",
    "pytorch-lightning==2.6.6",
    "replicate==1.0.7",
    "sdv==2.0.0",
    "semgrep==1.157.0",
    "sqlalchemy==2.1.9",
    "tables==3.11.1",
    "testcontainers==4.15.0",
    "truss==0.18.36",
    "uvicorn==0.55.0",
)
#: A twenty-first held-out set, chosen on 2026-12-07 once the twentieth set had been read and
#: after that session's last rule change: the newest releases for Python 3.11 that day of
#: test and HTTP-recording plugins, BDD and API test runners, SSH and RPC libraries, event
#: loops, documentation generators, code-quality tools, speech, image and video libraries,
#: tokenizers, topic models, vector and document databases and a translation platform, in
#: none of the lists above nor named in issues 30 and 31 or in bench/realbugs.txt. Its
#: findings are recorded unread and read once.
TWENTY_FIRST_PINS: Tuple[str, ...] = (
    "behave==1.3.3",
    "bertopic==0.17.4",
    "elasticsearch==9.5.1",
    "eventlet==0.41.3",
    "fabric2==3.2.3",
    "gevent==26.9.0",
    "griffe==2.4.1",
    "gtts==2.5.4",
    "jupyterlab-git==0.55.0",
    "konlpy==0.6.0",
    "lancedb==0.40.0",
    "mkdocstrings==1.0.8",
    "nemo-text-processing==1.2.0",
    "nox-poetry==1.2.0",
    "pact-python==4.2.0",
    "pillow-heif==1.9.0",
    "pims==0.6.0",
    "prospector==1.20.0",
    "pydoc-markdown==4.8.2",
    "pymongo==4.20.1",
    "pytest-benchmark==5.3.1",
    "pytest-cov==7.1.0",
    "pytest-django==4.14.0",
    "pythainlp==5.4.0",
    "pyvips==2.1.0",
    "radon==6.0.1",
    "responses==0.26.3",
    "robotframework==7.5",
    "rpyc==6.0.2",
    "schemathesis==4.32.5",
    "scikit-video==1.1.11",
    "sentencepiece==0.2.3",
    "speechrecognition==3.17.0",
    "sshtunnel==0.5.1",
    "tavern==3.7.1",
    "tiktoken==0.14.0",
    "top2vec==1.0.36",
    "tox-uv==1.37.10",
    "umap-learn==0.5.12",
    "vcrpy==9.4.2",
    "vosk==0.3.45",
    "vulture==2.16",
    "wagtail-localize==1.14.5",
    "weblate==5.14.3",
)

#: A twenty-second held-out set, chosen on 2026-12-07 once the twenty-first set had been read:
#: the newest releases for Python 3.11 that day of data-pipeline, cloud-ML and cluster SDKs,
#: geospatial and scientific file formats, bioinformatics, quantum chemistry and computing,
#: music, PDF and document tools, Django add-ons, database and terminal clients, and test
#: helpers, in none of the lists above nor named in issues 30 and 31 or in
#: bench/realbugs.txt. Its findings are recorded unread and read once.
TWENTY_SECOND_PINS: Tuple[str, ...] = (
    "apache-beam==2.78.0",
    "approvaltests==20.0.1",
    "asciinema==2.4.0",
    "asdf==6.0.0",
    "azure-ai-ml==1.35.2",
    "bioblend==1.9.0",
    "check-manifest==0.51",
    "contextily==1.7.1",
    "DendroPy==5.1.3",
    "django-extensions==4.1",
    "django-pipeline==4.1.0",
    "django-silk==5.6.0",
    "dlt==1.31.0",
    "edge-tts==7.3.1",
    "ffsubsync==0.5.1",
    "folium==0.20.0",
    "frictionless==5.21.0",
    "galaxy-tool-util==26.1.2",
    "gffutils==0.14",
    "google-cloud-aiplatform==2.7.0",
    "h5netcdf==1.8.3",
    "ibis-framework==12.0.0",
    "mapchete==2026.7.0",
    "marker-pdf==2.0.0",
    "music21==10.5.1",
    "mycli==2.30.1",
    "neo==0.14.6",
    "networkx==3.6.1",
    "nose2==0.16.0",
    "npTDMS==1.13.0",
    "onnxruntime==1.32.0",
    "pennylane==0.45.1",
    "pyscf==2.14.0",
    "pytest-mypy-plugins==4.1.0",
    "python-openstackclient==10.5.0",
    "rio-cogeo==7.0.4",
    "rst2pdf==0.105",
    "skypilot==0.14.1",
    "snowflake-connector-python==5.2.0",
    "sympy==1.14.0",
    "testfixtures==12.4.0",
    "tmuxp==1.76.0",
    "unoserver==3.7",
    "visidata==3.4",
)
#: A twenty-third held-out set, chosen on 2026-12-07 once the twenty-second set had been read
#: and the rule changes drawn from it had landed: the newest releases for Python 3.11 that day
#: (wheels only) of backup and cloud storage, documentation, audio and image, astronomy and
#: solar, database ORM and migration, network and security, terminal, scraping, e-book and
#: office, ML serving, chat-bot, game, hardware and finance packages, in none of the lists
#: above nor in bench/realbugs.txt, chosen by domain, not by what they do with temps. Its
#: findings are recorded unread and read once.
TWENTY_THIRD_PINS: Tuple[str, ...] = (
    "arcade==3.3.3",
    "astroplan==0.6",
    "audioread==3.1.0",
    "breathe==5.1.0",
    "cairosvg==2.9.1",
    "ccdproc==2.5.1",
    "ccxt==4.5.90",
    "csvkit==2.2.0",
    "discord.py==2.7.1",
    "EbookLib==0.20",
    "fava==1.30.16",
    "feedparser==6.0.14",
    "Flask-Migrate==4.1.0",
    "impacket==0.13.1",
    "litserve==0.2.19",
    "mammoth==1.13.0",
    "Markdown==3.11.4",
    "markitdown==0.1.9",
    "matrix-nio==0.26.0",
    "MechanicalSoup==1.4.0",
    "netmiko==4.8.0",
    "nvitop==1.7.2",
    "peewee==4.5.3",
    "pvlib==0.16.1",
    "pwntools==4.15.0",
    "pyexcel==0.7.6",
    "pyglet==2.1.19",
    "pymodbus==3.16.1",
    "pyocd==0.46.0",
    "python-telegram-bot==22.8",
    "rdflib==7.6.0",
    "scapy==2.8.0",
    "setuptools-rust==1.13.0",
    "skyfield==1.55",
    "slack-bolt==1.30.0",
    "sphinx-autoapi==3.9.0",
    "sphinx-needs==9.1.0",
    "sqlite-utils==4.2.1",
    "tortoise-orm==1.1.9",
    "trafilatura==2.3.1",
    "urwid==5.1.0",
    "volatility3==2.28.2",
    "yfinance==1.7.0",
    "yoyo-migrations==9.0.0",
)
#: A twenty-fourth held-out set, chosen on 2026-12-07 once the twenty-third set had been read and
#: after that round's rule changes: the newest releases for Python 3.11 that day (wheels only) of
#: LLM clients and fine-tuning, plotting, type checking and linting, web frameworks and ASGI
#: servers, process control and containers, science and optimisation, quantum computing, HTTP and
#: database clients, ORMs, games and GUI, notifications, mail and shell packages, in none of the
#: lists above nor in bench/realbugs.txt, chosen by domain, not by what they do with temps. Its
#: findings are recorded unread and read once.
TWENTY_FOURTH_PINS: Tuple[str, ...] = (
    "altair==6.3.0",
    "anthropic==2.17.0",
    "apprise==2.3.0",
    "botocore==1.44.18",
    "bowler==0.9.0",
    "cellpose==4.2.1.1",
    "channels==4.3.2",
    "circus==0.19.0",
    "cvxpy==1.9.3",
    "daphne==4.2.3",
    "djangorestframework==3.18.3",
    "dspy==3.4.1",
    "falcon==4.4.0",
    "gmsh==4.11.1",
    "instructor==1.17.0",
    "ipywidgets==8.1.9",
    "Kivy==2.3.1",
    "mechanize==0.4.10",
    "mongoengine==0.29.3",
    "offlineimap==8.0.3",
    "omegaconf==2.4.0",
    "openai==3.63.0",
    "opensearch-py==3.2.0",
    "phonopy==4.11.0",
    "piccolo==1.38.0",
    "podman-compose==1.6.0",
    "psycopg==3.3.9",
    "ptyprocess==0.7.0",
    "pyarrow==26.0.1",
    "pydocstyle==6.3.0",
    "pygame==2.6.1",
    "pyomo==6.10.1",
    "pytype==2024.10.11",
    "qiskit==2.6.2",
    "qtconsole==5.7.2",
    "quart==0.22.0",
    "redis==8.2.0",
    "requests-html==0.10.0",
    "requests==2.34.2",
    "seaborn==0.13.2",
    "sh==2.4.0",
    "spyder-kernels==3.1.6",
    "thefuck==3.32",
    "trl==1.16.0",
    "urllib3==2.8.0",
)
#: A twenty-fifth held-out set, chosen on 2026-12-07 once the twenty-fourth set had been read and
#: after that round's rule changes: the newest releases for Python 3.11 that day (wheels only) of
#: documentation tools, CLI frameworks, data validation and serialization, geospatial,
#: bioinformatics, audio and video, cryptography and security, cloud SDKs, task queues, static
#: site generators, testing tools, packaging and build tools, editor plugins, networking,
#: monitoring, scraping and finance packages, in none of the lists above nor in
#: bench/realbugs.txt, chosen by domain, not by what they do with temps. Its findings are recorded
#: unread and read once.
TWENTY_FIFTH_PINS: Tuple[str, ...] = (
    "ablog==0.11.13",
    "alpaca-py==0.44.0",
    "av==18.1.1",
    "backtrader==1.9.78.123",
    "cattrs==26.2.1",
    "cement==3.0.16",
    "click==8.5.1",
    "Crawl4AI==0.9.5",
    "cryptography==51.0.1",
    "databricks-sdk==0.167.0",
    "datadog==0.56.0",
    "django-q2==1.11.1",
    "dnspython==2.9.2",
    "geopy==2.5.0",
    "google-cloud-bigquery==3.47.0",
    "jedi-language-server==0.47.0",
    "jsonschema==4.26.0",
    "marshmallow==4.4.0",
    "mkdocs-macros-plugin==1.5.0",
    "momepy==0.11.0",
    "mutmut==3.8.1",
    "ncclient==0.7.1",
    "newspaper4k==0.9.6",
    "oci==2.189.0",
    "opentelemetry-sdk==1.45.2",
    "parsel==1.12.1",
    "pedalboard==0.9.26",
    "pip-licenses==5.5.5",
    "procrastinate==3.10.0",
    "prometheus-client==0.26.0",
    "pydoctor==25.10.1",
    "pyfaidx==0.9.2.2",
    "PyJWT==2.15.1",
    "pynvim==0.6.0",
    "pysam==0.24.1",
    "pytest-bdd==9.0.1",
    "pytest-html==4.2.0",
    "quantstats==0.0.86",
    "rasterstats==0.21.0",
    "scikit-bio==0.7.4",
    "sigstore==4.5.1",
    "staticjinja==5.0.0",
    "taskiq==0.13.0",
    "typer==0.29.3",
    "versioneer==0.29",
)
#: A twenty-sixth held-out set, chosen on 2026-12-07 once the twenty-fifth set had been read and
#: after that round's rule changes: the newest releases for Python 3.11 that day (wheels only) of
#: web frameworks and servers, ORMs and database drivers, data science and plotting, NLP, image
#: processing, infrastructure tooling, configuration and CLI, messaging and RPC, parsing and
#: templating, notebook and editor tooling, scientific computing, games and GUIs, testing plugins,
#: security, workflow orchestration, package managers, HTTP clients and storage SDKs, in none of the
#: lists above nor in bench/realbugs.txt, chosen by domain, not by what they do with temps. Its
#: findings are recorded unread and read once.
TWENTY_SIXTH_PINS: Tuple[str, ...] = (
    "aioboto3==15.5.0",
    "asyncpg==0.32.0",
    "Authlib==1.9.10",
    "azure-storage-file-datalake==12.26.1",
    "bcrypt==5.0.0",
    "beautifulsoup4==4.15.0",
    "blacksheep==2.6.4",
    "cfn-lint==1.58.0",
    "curl-cffi==0.17.0",
    "dagster==1.13.29",
    "dearpygui==2.3.1",
    "django-debug-toolbar==8.0.0",
    "duckdb==2.0.1",
    "dynaconf==3.3.5",
    "gensim==4.4.0",
    "granian==2.8.9",
    "httpcore==1.0.9",
    "jupyter-lsp==2.3.1",
    "lark==1.3.1",
    "opencv-python-headless==5.1.0.95",
    "paho-mqtt==2.2.0",
    "pandas==3.1.2",
    "pika==1.4.4",
    "Pint==0.25.3",
    "plotnine==0.15.9",
    "poetry-plugin-export==1.10.1",
    "prefect==3.9.1",
    "pycryptodome==4.5.0",
    "pymunk==7.3.1",
    "pytest-asyncio==1.5.0",
    "pytest-mock==3.17.0",
    "pytest-timeout==2.4.0",
    "python-dotenv==1.2.4",
    "python-hcl2==8.1.4",
    "pyzmq==27.3.0",
    "rich==15.0.0",
    "ruff==0.17.6",
    "scipy==1.17.1",
    "simpleitk==2.5.7",
    "sqlmodel==0.0.50",
    "statsmodels==0.15.0",
    "textblob==0.20.1",
    "tomlkit==0.15.3",
    "troposphere==4.11.1",
    "uv==0.13.10",
)
#: A twenty-seventh held-out set, chosen on 2026-12-08 once the twenty-sixth set had been read
#: and after that round's rule changes: the newest releases for Python 3.11 that day (wheels only)
#: of web frameworks and servers, ORMs and database drivers, infrastructure tooling, messaging and
#: RPC, HTTP clients and storage, data science and plotting, NLP, audio and image processing,
#: configuration and CLI, parsing and templating, notebook and editor tooling, scientific
#: computing, GUIs and games, testing plugins, security, workflow orchestration, packaging,
#: documentation, bioinformatics and geospatial code, in none of the lists above nor in
#: bench/realbugs.txt, chosen by domain (by a helper that did not read the rules), not by what they
#: do with temps. Its findings are recorded unread and read once.
TWENTY_SEVENTH_PINS: Tuple[str, ...] = (
    "aiosqlite==0.22.1",
    "asciimatics==1.15.0",
    "bioservices==1.16.0",
    "Chameleon==4.6.0",
    "cheroot==11.1.2",
    "cliff==4.17.0",
    "colour-science==0.4.7",
    "connexion==3.3.0",
    "django-ninja==1.8.0",
    "euporie==2.10.4",
    "httplib2==0.32.1",
    "hvplot==0.12.2",
    "jsonargparse==4.53.0",
    "jupyter_server_proxy==4.6.0",
    "jwcrypto==1.6.2",
    "kafka-python==3.0.12",
    "kopf==1.45.2",
    "libpysal==4.14.1",
    "lmfit==1.3.4",
    "mido==1.3.3",
    "myst-parser==5.2.0",
    "nameko==2.14.1",
    "niquests==3.21.2",
    "numpydoc==1.11.0",
    "OWSLib==0.35.0",
    "passlib==1.9.5",
    "pony==0.7.20",
    "PyMySQL==1.2.4",
    "pypyr==5.9.1",
    "Pyro5==5.17",
    "pyteomics==5.0.1",
    "pytest-recording==0.15.0",
    "pytest-rerunfailures==16.7",
    "python-gitlab==8.6.0",
    "sceptre==4.7.0",
    "sf-hamilton==1.90.0",
    "simpy==4.1.2",
    "sumy==0.13.0",
    "textacy==0.13.0",
    "textX==4.4.0",
    "ursina==7.0.0",
    "versioningit==3.3.0",
    "webdav4==0.11.0",
    "ydata-profiling==4.18.4",
    "zest.releaser==9.9.1",
)
#: Two different seeds: str hashes, and with them set iteration order, differ between them.
HASH_SEEDS = ("0", "4242")

VERDICTS = ("true", "arguable", "false")
UNREVIEWED = "unreviewed"

FINDING_LINE = re.compile(r"(?P<path>.+?):(?P<line>\d+):(?P<column>\d+) (?P<code>[A-Z]+\d+) (?P<message>.*)")
# A review row: | `path:line:col CODE` | verdict | reason |   (the reason may hold escaped pipes)
REVIEW_ROW = re.compile(r"\|\s*`(?P<key>[^`]+:\d+:\d+ [A-Z]+\d+)`\s*\|(?P<verdict>[^|]*)\|(?P<reason>.*)\|")


class EcosystemError(Exception):
    """The check cannot go on; the message says why."""


@dataclass(frozen=True)
class Pin:
    name: str
    version: str

    @classmethod
    def parse(cls, spec: str) -> Pin:
        name, sep, version = spec.partition("==")
        if not sep or not name.strip() or not version.strip():
            raise EcosystemError(f"a pin is NAME==VERSION, not {spec!r}")
        return cls(name.strip(), version.strip())

    @property
    def spec(self) -> str:
        return f"{self.name}=={self.version}"

    @property
    def dirname(self) -> str:
        """`name-version` as a wheel's file name spells it, so one name on every machine."""
        return f"{normalize(self.name)}-{self.version}"


def normalize(name: str) -> str:
    """A distribution name as wheel file names write it (PEP 427, PEP 503)."""
    return re.sub(r"[-_.]+", "_", name).lower()


@dataclass(frozen=True, order=True)
class Finding:
    """One finding, ordered by path, then line and column, then code."""

    path: str
    line: int
    column: int
    code: str
    message: str

    @property
    def key(self) -> str:
        """What a review row is keyed by: the position and the code, not the wording."""
        return f"{self.path}:{self.line}:{self.column} {self.code}"

    def render(self) -> str:
        return f"{self.key} {self.message}"


@dataclass(frozen=True)
class Verdict:
    key: str
    verdict: str
    reason: str

    @property
    def code(self) -> str:
        return self.key.rsplit(" ", 1)[1]

    @property
    def reviewed(self) -> bool:
        return self.verdict in VERDICTS and bool(self.reason)


@dataclass(frozen=True)
class Review:
    verdicts: Dict[str, Verdict]
    duplicates: Tuple[str, ...]
    text: str


@dataclass(frozen=True)
class Tally:
    """One code's findings by verdict."""

    findings: int = 0
    true: int = 0
    arguable: int = 0
    false: int = 0

    @property
    def unreviewed(self) -> int:
        return self.findings - self.true - self.arguable - self.false

    @property
    def precision(self) -> Optional[float]:
        """(true + arguable) / reviewed; None while nothing is reviewed."""
        reviewed = self.true + self.arguable + self.false
        return (self.true + self.arguable) / reviewed if reviewed else None

    def precision_at_least(self, percent: int) -> bool:
        """In integers, so that 19 of 20 meets 95% exactly."""
        return 100 * (self.true + self.arguable) >= percent * (self.true + self.arguable + self.false)


#: The targets on each half of the corpus, per code: what they say, and whether a tally meets them.
TARGETS: Dict[str, Tuple[str, Callable[[Tally], bool]]] = {
    "XDV101": ("precision >= 90%", lambda t: t.precision_at_least(90)),
    "XDV102": ("precision >= 90%, true >= arguable", lambda t: t.precision_at_least(90) and t.true >= t.arguable),
    "XDV103": ("precision >= 90%", lambda t: t.precision_at_least(90)),
    "XDV201": ("precision >= 90%", lambda t: t.precision_at_least(90)),
    "XDV202": ("precision >= 90%, true >= arguable", lambda t: t.precision_at_least(90) and t.true >= t.arguable),
    "XDV203": ("precision >= 90%", lambda t: t.precision_at_least(90)),
}


# --- the corpus -------------------------------------------------------------------------

def find_wheel(downloads: Path, pin: Pin) -> Optional[Path]:
    """A wheel of exactly this pin already in `downloads`, if any (the first by name)."""
    if not downloads.is_dir():
        return None
    for wheel in sorted(downloads.glob("*.whl")):
        parts = wheel.name.split("-")
        if len(parts) >= 5 and normalize(parts[0]) == normalize(pin.name) and parts[1] == pin.version:
            return wheel
    return None


def download(downloads: Path, pins: Sequence[Pin]) -> None:
    """`pip download` the wheels alone: no dependencies, no sdist builds, no pip cache."""
    downloads.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
        "--no-cache-dir", "--dest", str(downloads), *(pin.spec for pin in pins),
    ]
    if subprocess.run(command).returncode != 0:
        raise EcosystemError(f"pip download failed for {', '.join(pin.spec for pin in pins)}")


def unpack(wheel: Path, dest: Path) -> None:
    """Extract beside `dest`, then rename into place: a half-unpacked tree never looks whole."""
    staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    try:
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(staging)
        os.rename(staging, dest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def copy_stdlib(source: Path, dest: Path) -> None:
    """Copy the standard library without installed packages or bytecode, renamed into place."""
    staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    try:
        shutil.copytree(
            source, staging, symlinks=True, dirs_exist_ok=True,
            ignore=shutil.ignore_patterns("site-packages", "dist-packages", "__pycache__"),
        )
        os.rename(staging, dest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def prepare(root: Path, pins: Sequence[Pin], stdlib: bool) -> List[str]:
    """The corpus directories to lint, relative to `root`, fetching only what is missing.

    Layout: `dl/` the wheels, `src/NAME-VERSION/` each unpacked, `stdlib-X.Y.Z/` the stdlib.
    """
    downloads, sources = root / "dl", root / "src"
    missing = [pin for pin in pins if not (sources / pin.dirname).is_dir() and find_wheel(downloads, pin) is None]
    if missing:
        download(downloads, missing)
    sources.mkdir(parents=True, exist_ok=True)
    for pin in pins:
        if not (sources / pin.dirname).is_dir():
            wheel = find_wheel(downloads, pin)
            if wheel is None:
                raise EcosystemError(f"no wheel for {pin.spec} in {downloads} after pip download")
            unpack(wheel, sources / pin.dirname)
    targets = [f"src/{pin.dirname}" for pin in pins]
    if stdlib:
        name = f"stdlib-{platform.python_version()}"
        if not (root / name).is_dir():
            copy_stdlib(Path(sysconfig.get_paths()["stdlib"]), root / name)
        targets.append(name)
    return targets


def header(pins: Sequence[Pin], stdlib: bool) -> str:
    """The findings file's first line: which corpus the findings are of."""
    parts = sorted(pin.spec for pin in pins) + (["stdlib"] if stdlib else [])
    return f"# xdevlint ecosystem corpus, Python {platform.python_version()}: {', '.join(parts)}"


# --- running xdevlint -------------------------------------------------------------------

def run_xdevlint(root: Path, targets: Sequence[str], hashseed: str) -> List[Finding]:
    """xdevlint's findings on `targets` as the installed command reports them, sorted.

    It runs in `root` on relative paths, so no machine path reaches a finding; `--isolated`
    so that no configuration shipped in a package changes what is checked.
    """
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    done = subprocess.run(
        [sys.executable, "-m", "xdevlint", "--isolated", "--format", "json", *targets],
        cwd=root, env=env, capture_output=True, encoding="utf-8",
    )
    if done.returncode not in (0, 1):  # 1: findings remain, a normal run
        raise EcosystemError(f"xdevlint exited {done.returncode}:\n{done.stderr[-3000:]}")
    return sorted(
        Finding(
            Path(item["path"]).as_posix(), item["line"], item["column"], item["code"],
            item["message"].replace("\n", "\\n"),  # one finding, one line
        )
        for item in json.loads(done.stdout)
    )


# --- the findings file ------------------------------------------------------------------

def format_findings(head: str, findings: Iterable[Finding]) -> str:
    return "".join(f"{line}\n" for line in [head, *(f.render() for f in sorted(findings))])


def parse_findings(text: str, where: str = "findings") -> Tuple[Optional[str], List[Finding]]:
    """The header (None when absent) and the findings of a findings file."""
    head: Optional[str] = None
    findings: List[Finding] = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("#"):
            head = head or line
            continue
        if not line.strip():
            continue
        match = FINDING_LINE.fullmatch(line)
        if match is None:
            raise EcosystemError(f"{where}:{number}: not `path:LINE:COL CODE message`: {line!r}")
        findings.append(Finding(match["path"], int(match["line"]), int(match["column"]), match["code"], match["message"]))
    return head, sorted(findings)


def read_findings(path: Path) -> Tuple[Optional[str], List[Finding]]:
    """A missing file has no findings: the first run shows every finding as added."""
    if not path.exists():
        return None, []
    return parse_findings(path.read_text(encoding="utf-8"), str(path))


def write_text(path: Path, text: str) -> None:
    """Atomically and only when the bytes change (our own medicine: temp beside, then replace)."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    fd, staging = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(staging, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(staging)
        raise


@dataclass(frozen=True)
class Diff:
    added: Tuple[Finding, ...]
    removed: Tuple[Finding, ...]

    def __bool__(self) -> bool:
        return bool(self.added or self.removed)


def diff(old: Iterable[Finding], new: Iterable[Finding]) -> Diff:
    """Findings only in `new` and only in `old`, as multisets (a message change is both)."""
    before, after = Counter(old), Counter(new)
    return Diff(tuple(sorted((after - before).elements())), tuple(sorted((before - after).elements())))


# --- the review file --------------------------------------------------------------------

def parse_review(text: str) -> Review:
    """Every row keyed `path:line:col CODE`, wherever it stands; the rest is regenerated."""
    verdicts: Dict[str, Verdict] = {}
    duplicates: List[str] = []
    for line in text.splitlines():
        match = REVIEW_ROW.fullmatch(line.strip())
        if match is None:
            continue
        key = match["key"]
        if key in verdicts:
            duplicates.append(key)
            continue
        verdicts[key] = Verdict(key, match["verdict"].strip().lower(), match["reason"].strip())
    return Review(verdicts, tuple(duplicates), text)


def read_review(path: Path) -> Review:
    return parse_review(path.read_text(encoding="utf-8") if path.exists() else "")


def tally(findings: Sequence[Finding], verdicts: Dict[str, Verdict]) -> Dict[str, Tally]:
    """Per code (every code with a target, and every code found), its findings by verdict."""
    counts: Dict[str, Counter[str]] = {code: Counter() for code in TARGETS}
    for finding in findings:
        verdict = verdicts.get(finding.key)
        counts.setdefault(finding.code, Counter())["findings"] += 1
        if verdict is not None and verdict.reviewed:
            counts[finding.code][verdict.verdict] += 1
    return {
        code: Tally(c["findings"], c["true"], c["arguable"], c["false"]) for code, c in sorted(counts.items())
    }


def target_status(code: str, counts: Tally) -> Tuple[str, str]:
    """The code's target and whether it is met: yes, no, pending (unreviewed findings) or n/a."""
    if code not in TARGETS:
        return "-", "n/a"
    text, met = TARGETS[code]
    if not met(counts):
        return text, "no"
    return text, f"pending ({counts.unreviewed} unreviewed)" if counts.unreviewed else "yes"


def percent(value: Optional[float]) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


SUMMARY_COLUMNS = ("code", "findings", "true", "arguable", "false", "unreviewed", "precision", "target", "met")


def summary_rows(counts: Dict[str, Tally]) -> List[Tuple[str, ...]]:
    rows: List[Tuple[str, ...]] = []
    for code, t in counts.items():
        target, met = target_status(code, t)
        rows.append((code, str(t.findings), str(t.true), str(t.arguable), str(t.false), str(t.unreviewed),
                     percent(t.precision), target, met))
    return rows


REVIEW_INTRO = """\
Every finding of `ecosystem-findings.txt` with a verdict and a one-line reason, read in
its source:

- `true`: the bug the rule describes is there, on a path that can happen, and worth fixing;
- `arguable`: the code does what the rule says, but the harm is doubtful (a test, an
  empty file, unreachable code, a temp that a finalizer removes later);
- `false`: the rule is wrong about this code (the temp is removed on every path that can
  fail in practice, the handler is narrow or shows the error, ...) or its contract in
  docs/DESIGN.md / docs/SAFEMOVE.md says not to flag it.

Precision is (true + arguable) / reviewed. Edit only the verdict and reason cells (a `|`
inside a reason is written `\\|`); `python bench/ecosystem.py --update-review` adds rows for
new findings as `unreviewed`, drops the rows of vanished ones, rewrites the summary and
keeps every verdict and reason. bench/README.md says how to review a diff.
"""


def render_review(head: str, findings: Sequence[Finding], verdicts: Dict[str, Verdict]) -> str:
    """The whole review file: intro, summary, one table per code; rows as `findings` order them."""
    lines = ["# xdevlint ecosystem review", "", REVIEW_INTRO, f"Corpus: `{head.lstrip('# ')}`", "", "## Summary", ""]
    lines.append("| " + " | ".join(SUMMARY_COLUMNS) + " |")
    lines.append("|---|" + "---:|" * 6 + "---|---|")
    lines.extend("| " + " | ".join(row) + " |" for row in summary_rows(tally(findings, verdicts)))
    by_code: Dict[str, Dict[str, None]] = {}  # insertion-ordered: two findings at one position share a row
    for finding in sorted(findings):
        by_code.setdefault(finding.code, {})[finding.key] = None
    for code in sorted(by_code):
        lines.extend(["", f"## {code}", "", "| finding | verdict | reason |", "|---|---|---|"])
        for key in by_code[code]:
            verdict = verdicts.get(key, Verdict(key, UNREVIEWED, ""))
            lines.append(f"| `{key}` | {verdict.verdict} | {verdict.reason} |")
    return "\n".join(lines) + "\n"


# --- reports ----------------------------------------------------------------------------

def print_diff(old_head: Optional[str], head: str, old_total: int, changes: Diff, verdicts: Dict[str, Verdict]) -> None:
    """ruff-ecosystem style: counts per code, then each removed (-) and added (+) finding.

    A position on both sides only changed its message (reworded): its verdict carries over
    but deserves a second look. Under a line stands the verdict of its position, so that
    losing a `true` finding reads as a regression and losing a `false` one as a gain.
    """
    reworded = {f.key for f in changes.added} & {f.key for f in changes.removed}
    added = [f for f in changes.added if f.key not in reworded]
    removed = [f for f in changes.removed if f.key not in reworded]

    def counts(plus: int, minus: int, changed: int) -> str:
        return f"+{plus} -{minus}" + (f", {changed} reworded" if changed else "")

    now = old_total + len(changes.added) - len(changes.removed)
    print(f"findings: {old_total} committed, {now} now ({counts(len(added), len(removed), len(reworded))})")
    if old_head is not None and old_head != head:
        print(f"  corpus changed:\n  - {old_head}\n  + {head}")
    for code in sorted({f.code for f in changes.added + changes.removed}):
        gone = [verdicts[f.key].verdict if f.key in verdicts else UNREVIEWED for f in removed if f.code == code]
        detail = ", ".join(f"{n} {v}" for v, n in sorted(Counter(gone).items()))
        line = counts(sum(f.code == code for f in added), len(gone), sum(k.endswith(f" {code}") for k in reworded))
        print(f"  {code}: {line}" + (f" (removed: {detail})" if detail else ""))
    marked = [(f, "-") for f in changes.removed] + [(f, "+") for f in changes.added]
    for finding, sign in sorted(marked, key=lambda item: (item[0].key, item[1] == "+", item[0].message)):
        print(f"{sign} {finding.render()}")
        verdict = verdicts.get(finding.key)
        if verdict is not None and not (sign == "-" and finding.key in reworded):
            print(f"      reviewed {verdict.verdict}: {verdict.reason}")


def report_review(findings: Sequence[Finding], review: Review, head: str, path: Path) -> Tuple[int, int]:
    """Print (a) findings without a verdict, (b) verdicts whose finding is gone, (c) the tally.

    Returns the counts of (a) and (b).
    """
    keys = {f.key for f in findings}
    unjudged = [f for f in findings if f.key not in review.verdicts or not review.verdicts[f.key].reviewed]
    orphans = [v for key, v in review.verdicts.items() if key not in keys]
    print(f"review {path.name}: {len(findings) - len(unjudged)} of {len(findings)} findings reviewed")
    for key in review.duplicates:
        print(f"  duplicate row (the first counts): {key}")
    if unjudged:
        print(f"  (a) {len(unjudged)} without a verdict and a reason:")
        for finding in unjudged:
            print(f"      {finding.render()}")
    if orphans:
        print(f"  (b) {len(orphans)} verdicts whose finding disappeared (--update-review drops them):")
        for verdict in orphans:
            print(f"      {verdict.key}: {verdict.verdict}: {verdict.reason}")
    rows = [SUMMARY_COLUMNS] + [tuple(r) for r in summary_rows(tally(findings, review.verdicts))]
    widths = [max(len(row[i]) for row in rows) for i in range(len(SUMMARY_COLUMNS))]
    print("  (c)")
    for row in rows:
        print("      " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    if review.text and review.text != render_review(head, findings, review.verdicts):
        print("  the review's summary or rows are out of date: run with --update-review")
    return len(unjudged), len(orphans)


# --- the command ------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS,
                        help=f"where wheels are downloaded and unpacked (default {DEFAULT_CORPUS}); reused")
    parser.add_argument("--half", choices=("tuned", "check", "fresh", "late", "final", "last", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth", "twenty-first", "twenty-second", "twenty-third", "twenty-fourth", "twenty-fifth", "twenty-sixth", "twenty-seventh"), default="tuned",
                        help="which part of the corpus: tuned (PINS and the stdlib, the default), check "
                             "(CHECK_PINS, held out, then read), fresh (FRESH_PINS, held out after it), late "
                             "(LATE_PINS, held out after that), final (FINAL_PINS, held out after the late set), last "
                             "(LAST_PINS, held out after the final set), sixth (SIXTH_PINS, held out after the last set), "
                             "seventh (SEVENTH_PINS, held out after the sixth set), eighth (EIGHTH_PINS, after the seventh), "
                             "ninth (NINTH_PINS, after the eighth), tenth (TENTH_PINS, after the ninth), "
                             "eleventh (ELEVENTH_PINS, after the tenth), twelfth (TWELFTH_PINS, after the eleventh), "
                             "thirteenth (THIRTEENTH_PINS, after the twelfth), "
                             "fourteenth (FOURTEENTH_PINS, after the thirteenth), "
                             "fifteenth (FIFTEENTH_PINS, after the fourteenth), "
                             "sixteenth (SIXTEENTH_PINS, after the fifteenth), "
                             "seventeenth (SEVENTEENTH_PINS, after the sixteenth), "
                             "eighteenth (EIGHTEENTH_PINS, after the seventeenth), "
                             "nineteenth (NINETEENTH_PINS, after the eighteenth), "
                             "twentieth (TWENTIETH_PINS, after the nineteenth), "
                             "twenty-first (TWENTY_FIRST_PINS, after the twentieth), "
                             "twenty-second (TWENTY_SECOND_PINS, after the twenty-first) "
                             "twenty-third (TWENTY_THIRD_PINS, after the twenty-second) "
                             "twenty-fourth (TWENTY_FOURTH_PINS, after the twenty-third) "
                             "twenty-fifth (TWENTY_FIFTH_PINS, after the twenty-fourth) "
                             "twenty-sixth (TWENTY_SIXTH_PINS, after the twenty-fifth) "
                             "or twenty-seventh (TWENTY_SEVENTH_PINS, after the twenty-sixth): "
                             "each with its own findings and review files")
    parser.add_argument("--pin", action="append", metavar="NAME==VERSION",
                        help="check these packages instead of the built-in pins (repeatable)")
    parser.add_argument("--no-stdlib", dest="stdlib", action="store_false", help="leave out the stdlib")
    parser.add_argument("--findings", type=Path, help="the findings file (default: bench's, for the half)")
    parser.add_argument("--review", type=Path, help="the review file (default: bench's, for the half)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="write nothing; exit 1 if findings changed, lack a verdict, or verdicts lost their finding")
    mode.add_argument("--update-review", action="store_true",
                      help="also rewrite the review: rows for new findings, none for vanished ones, a new summary")
    parser.add_argument("--hashseed-check", action="store_true",
                        help=f"run twice, PYTHONHASHSEED={' and '.join(HASH_SEEDS)}; exit 1 on any difference")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    held_out = args.half != "tuned"
    committed = {
        "tuned": (FINDINGS_FILE, REVIEW_FILE),
        "check": (CHECK_FINDINGS_FILE, CHECK_REVIEW_FILE),
        "fresh": (FRESH_FINDINGS_FILE, FRESH_REVIEW_FILE),
        "late": (LATE_FINDINGS_FILE, LATE_REVIEW_FILE),
        "final": (FINAL_FINDINGS_FILE, FINAL_REVIEW_FILE),
        "last": (LAST_FINDINGS_FILE, LAST_REVIEW_FILE),
        "sixth": (SIXTH_FINDINGS_FILE, SIXTH_REVIEW_FILE),
        "seventh": (SEVENTH_FINDINGS_FILE, SEVENTH_REVIEW_FILE),
        "eighth": (EIGHTH_FINDINGS_FILE, EIGHTH_REVIEW_FILE),
        "ninth": (NINTH_FINDINGS_FILE, NINTH_REVIEW_FILE),
        "tenth": (TENTH_FINDINGS_FILE, TENTH_REVIEW_FILE),
        "eleventh": (ELEVENTH_FINDINGS_FILE, ELEVENTH_REVIEW_FILE),
        "twelfth": (TWELFTH_FINDINGS_FILE, TWELFTH_REVIEW_FILE),
        "thirteenth": (THIRTEENTH_FINDINGS_FILE, THIRTEENTH_REVIEW_FILE),
        "fourteenth": (FOURTEENTH_FINDINGS_FILE, FOURTEENTH_REVIEW_FILE),
        "fifteenth": (FIFTEENTH_FINDINGS_FILE, FIFTEENTH_REVIEW_FILE),
        "sixteenth": (SIXTEENTH_FINDINGS_FILE, SIXTEENTH_REVIEW_FILE),
        "seventeenth": (SEVENTEENTH_FINDINGS_FILE, SEVENTEENTH_REVIEW_FILE),
        "eighteenth": (EIGHTEENTH_FINDINGS_FILE, EIGHTEENTH_REVIEW_FILE),
        "nineteenth": (NINETEENTH_FINDINGS_FILE, NINETEENTH_REVIEW_FILE),
        "twentieth": (TWENTIETH_FINDINGS_FILE, TWENTIETH_REVIEW_FILE),
        "twenty-first": (TWENTY_FIRST_FINDINGS_FILE, TWENTY_FIRST_REVIEW_FILE),
        "twenty-second": (TWENTY_SECOND_FINDINGS_FILE, TWENTY_SECOND_REVIEW_FILE),
        "twenty-third": (TWENTY_THIRD_FINDINGS_FILE, TWENTY_THIRD_REVIEW_FILE),
        "twenty-fourth": (TWENTY_FOURTH_FINDINGS_FILE, TWENTY_FOURTH_REVIEW_FILE),
        "twenty-fifth": (TWENTY_FIFTH_FINDINGS_FILE, TWENTY_FIFTH_REVIEW_FILE),
        "twenty-sixth": (TWENTY_SIXTH_FINDINGS_FILE, TWENTY_SIXTH_REVIEW_FILE),
        "twenty-seventh": (TWENTY_SEVENTH_FINDINGS_FILE, TWENTY_SEVENTH_REVIEW_FILE),
    }[args.half]
    args.findings = args.findings or committed[0]
    args.review = args.review or committed[1]
    if held_out:
        args.stdlib = False  # the stdlib belongs to the tuned half
    try:
        pins = [Pin.parse(spec) for spec in (args.pin or {"tuned": PINS, "check": CHECK_PINS, "fresh": FRESH_PINS, "late": LATE_PINS,
                                                     "final": FINAL_PINS, "last": LAST_PINS, "sixth": SIXTH_PINS,
                                                     "seventh": SEVENTH_PINS, "eighth": EIGHTH_PINS,
                                                     "ninth": NINTH_PINS, "tenth": TENTH_PINS,
                                                     "eleventh": ELEVENTH_PINS, "twelfth": TWELFTH_PINS,
                                                     "thirteenth": THIRTEENTH_PINS, "fourteenth": FOURTEENTH_PINS,
                                                     "fifteenth": FIFTEENTH_PINS, "sixteenth": SIXTEENTH_PINS,
                                                     "seventeenth": SEVENTEENTH_PINS, "eighteenth": EIGHTEENTH_PINS,
                                                     "nineteenth": NINETEENTH_PINS, "twentieth": TWENTIETH_PINS,
                                                     "twenty-first": TWENTY_FIRST_PINS,
                                                     "twenty-second": TWENTY_SECOND_PINS,
                                                     "twenty-third": TWENTY_THIRD_PINS,
                                                     "twenty-fourth": TWENTY_FOURTH_PINS,
                                                     "twenty-fifth": TWENTY_FIFTH_PINS,
                                                     "twenty-sixth": TWENTY_SIXTH_PINS,
                                                     "twenty-seventh": TWENTY_SEVENTH_PINS}[args.half])]
        partial = args.pin is not None or (not args.stdlib and not held_out)
        if partial and not args.check and (args.findings in committed or args.review in committed):
            raise EcosystemError("--pin/--no-stdlib check part of the corpus: give --findings and --review "
                                 "files of their own, or --check, so the committed ones are not overwritten")
        head = header(pins, args.stdlib)
        root = args.corpus.expanduser()
        targets = prepare(root, pins, args.stdlib)
        # A fixed seed, so that a committed file differs from a new run only where the rules
        # changed; whether the seed matters at all is --hashseed-check's question.
        findings = run_xdevlint(root, targets, HASH_SEEDS[0])
        unstable = False
        if args.hashseed_check:
            difference = diff(findings, run_xdevlint(root, targets, HASH_SEEDS[1]))
            unstable = bool(difference)
            print(f"two runs, PYTHONHASHSEED {HASH_SEEDS[0]} and {HASH_SEEDS[1]}: "
                  + ("DIFFERENT" if unstable else "the same findings, word for word"))
            for finding in difference.removed:
                print(f"  only with {HASH_SEEDS[0]}: {finding.render()}")
            for finding in difference.added:
                print(f"  only with {HASH_SEEDS[1]}: {finding.render()}")
        old_head, old = read_findings(args.findings)
        changes = diff(old, findings)
        review = read_review(args.review)
        print_diff(old_head, head, len(old), changes, review.verdicts)
        if not args.check:
            write_text(args.findings, format_findings(head, findings))
        if args.update_review:
            keys = {f.key for f in findings}
            dropped = [v for key, v in sorted(review.verdicts.items()) if key not in keys]
            for verdict in dropped:
                print(f"dropped review row: `{verdict.key}` | {verdict.verdict} | {verdict.reason}")
            write_text(args.review, render_review(head, findings, review.verdicts))
            review = read_review(args.review)
        unjudged, orphans = report_review(findings, review, head, args.review)
    except EcosystemError as error:
        print(f"ecosystem: error: {error}", file=sys.stderr)
        return 2
    if unstable:
        return 1
    if args.check and (changes or old_head != head or unjudged or orphans):
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
