//! Every flag of every command, defined once (ripgrep's rule): each is a small `Args` struct
//! that commands flatten, and each turns itself into the library's named settings
//! ([`fairscore::api::Settings`]), where its value is parsed. `tests/it/outputs/cli_flags.rs` checks that
//! no long flag is defined twice under `src/cli`.

use std::path::PathBuf;

use clap::Args;
use fairscore::api::Settings;

/// Puts a flag's value into the settings.
pub trait Put {
    /// Adds this flag's value (if given) to `s`.
    fn put(&self, s: &mut Settings);
}

fn path_text(p: &Option<PathBuf>) -> Option<String> {
    p.as_ref().map(|p| p.to_string_lossy().into_owned())
}

/// `--gold` (`--ref`, `--target`, `-r`).
#[derive(Args, Debug, Clone)]
pub struct Gold {
    /// Gold standard file. Also `--ref` (the official scorer's name) and `--target`.
    #[arg(short = 'r', long = "gold", visible_aliases = ["ref", "target"], value_name = "GOLD")]
    pub gold: PathBuf,
}

/// `--pred` (`--system`, `-p`), once or (for `compare`) twice.
#[derive(Args, Debug, Clone)]
pub struct Pred {
    /// The run (system output) to score; `compare` takes two: `--pred A --pred B`. Also
    /// `--system`.
    #[arg(
        short = 'p',
        long = "pred",
        visible_alias = "system",
        value_name = "RUN",
        required = true
    )]
    pub pred: Vec<PathBuf>,
}

impl Pred {
    /// The one run of a command that scores one.
    pub fn one(&self) -> fairscore::Result<&PathBuf> {
        match self.pred.as_slice() {
            [p] => Ok(p),
            v => Err(fairscore::Error::usage(format!(
                "pred: this command scores one run, not {} (compare takes two)",
                v.len()
            ))),
        }
    }
}

/// `--format`.
#[derive(Args, Debug, Clone)]
pub struct Format {
    /// Input format of gold and run: auto (detect), hipe (HIPE TSV), conll (FORM [POS …] TAG,
    /// BIO tags, blank-line sentences, -DOCSTART- documents), conllu, text (one sentence a
    /// line, words separated by spaces), tsv (token TAB tags), spans (LABEL TAB begin TAB
    /// end), or the standoff formats brat, doccano, labelstudio and prodigy (character
    /// offsets; `evaluate --family spans|fair`, `fair`, `agree`). Each command says which it
    /// reads; `score`, `compare` and `muc` default to hipe, the others to auto.
    #[arg(long = "format", value_name = "FORMAT")]
    pub format: Option<String>,
}

/// `--column`.
#[derive(Args, Debug, Clone)]
pub struct ColumnFlag {
    /// The scored column: for CoNLL TAG (the last, default), a name or a 1-based number; for
    /// HIPE a header name (`muc`, `fair`: default NE-COARSE-LIT; several comma-separated for
    /// `fair`); for CoNLL-U a column name (default XPOS) or number; for TSV the tags column
    /// number (default 2).
    #[arg(long = "column", value_name = "NAME")]
    pub column: Option<String>,
}

/// `--task`.
#[derive(Args, Debug, Clone)]
pub struct TaskFlag {
    /// Task: nerc_coarse, nerc_fine or nel. `score` takes several, comma-separated, and reads
    /// the files once; `check` defaults to the tasks of the run's bundle; `compare` to
    /// nerc_coarse.
    #[arg(short = 't', long = "task", value_name = "TASK[,TASK…]")]
    pub task: Option<String>,
}

/// `--hipe-edition` (the official `--hipe_edition`).
#[derive(Args, Debug, Clone)]
pub struct Edition {
    /// HIPE edition, which decides the scored columns and the file-name convention: hipe-2020
    /// (default) or hipe-2022.
    #[arg(
        short = 'e',
        long = "hipe-edition",
        visible_alias = "hipe_edition",
        value_name = "EDITION"
    )]
    pub hipe_edition: Option<String>,
}

/// `--tagset`.
#[derive(Args, Debug, Clone)]
pub struct TagsetFlag {
    /// Tag set. score, check, compare: a file of valid labels, one a line (run labels outside
    /// gold and tag set are ignored). tagging: a TOML tag set (separator, categories, weights;
    /// docs/tagging.md) or `nkjp`, the bundled NKJP tag set.
    #[arg(long = "tagset", value_name = "FILE")]
    pub tagset: Option<String>,
}

/// `--labels`: fair's selection of labels, check's label list.
#[derive(Args, Debug, Clone)]
pub struct LabelListFlag {
    /// fair: evaluate only these labels (comma-separated). check: a label list FILE, one label
    /// a line (the campaign's labels): the run's labels are checked against it instead of the
    /// gold's, and against a blind gold (texts without annotations); every format (for HIPE,
    /// CoNLL and standoff runs `--tagset FILE` is the same list).
    #[arg(long = "labels", value_name = "L,…|FILE")]
    pub labels: Option<String>,
}

/// `--skip-check`.
#[derive(Args, Debug, Clone)]
pub struct SkipCheck {
    /// Do not check the run's file name; System is then the --pred argument as given (a
    /// run in another format than HIPE TSV is named by its file name without folders and
    /// extension, checked or not).
    #[arg(long = "skip-check", alias = "skip_check")]
    pub skip_check: bool,
}

/// `--original-nel` (the official `--original_nel`).
#[derive(Args, Debug, Clone)]
pub struct OriginalNel {
    /// NEL: group links as consecutive tokens with the same link (the original CLEF-HIPE-2020
    /// grouping) instead of by named-entity boundaries.
    #[arg(short = 'g', long = "original-nel", visible_alias = "original_nel")]
    pub original_nel: bool,
}

/// The options of a HIPE scoring beyond task, edition and tag set (`score`, and `evaluate` and
/// `compare` with `--family hipe`).
#[derive(Args, Debug, Clone)]
pub struct HipeFlags {
    /// NEL: evaluate at these cutoffs of ranked candidate lists `Q1|Q2|Q3`, e.g. 1,3,5
    /// (default 1).
    #[arg(
        short = 'n',
        long = "n-best",
        visible_alias = "n_best",
        value_name = "K[,K…]"
    )]
    pub n_best: Option<String>,
    /// Also evaluate on tokens whose OCR noise (MISC `LED<x>`) is in each range, e.g.
    /// 0.0-0.1,0.1-1.0 (lower ≤ LED < upper; tokens without LED are always kept).
    #[arg(long = "noise-level", alias = "noise_level", value_name = "RANGES")]
    pub noise_level: Option<String>,
    /// Also evaluate on documents dated in each period, e.g. 1900-1950,1950-2000 (years) or
    /// 1900/01/01-1950/12/31 (start included, end excluded).
    #[arg(long = "time-period", alias = "time_period", value_name = "RANGES")]
    pub time_period: Option<String>,
    /// Glue the labels of two columns, e.g. NE-COARSE-LIT+NE-NESTED (comma-separated pairs).
    #[arg(long = "glue", value_name = "A+B[,…]")]
    pub glue: Option<String>,
    /// NEL: relaxed evaluation in one step. Normalizes the gold (historical QIDs mapped to
    /// their main QID with MAP) and the run (the same, plus time entities linked to NIL) in
    /// memory before scoring; the suffix defaults to `relaxed`.
    #[arg(long = "relaxed", value_name = "MAP")]
    pub relaxed: Option<PathBuf>,
}

/// `--normalize-run` (`evaluate` and `compare` with `--family hipe`).
#[derive(Args, Debug, Clone)]
pub struct NormalizeRunFlag {
    /// --family hipe, NEL: normalize the run alone with this QID map (historical QIDs mapped
    /// to their main QID, time entities linked to NIL) before scoring it against a gold
    /// normalized already (the `_histonorm` files), as a campaign's relaxed NEL does.
    #[arg(long = "normalize-run", alias = "normalize_run", value_name = "MAP")]
    pub normalize_run: Option<PathBuf>,
}

/// `--regimes`.
#[derive(Args, Debug, Clone)]
pub struct RegimesFlag {
    /// Regimes, in order. score: rows of the TSV, fuzzy,strict (default, the official
    /// outputs), fair and weighted (needs --weights). compare: strict, ent_type (fuzzy),
    /// partial, exact, fair, weighted (default the first four). evaluate --family spans:
    /// strict, exact, partial, ent_type (default all).
    #[arg(long = "regimes", value_name = "LIST")]
    pub regimes: Option<String>,
}

/// `--weights`.
#[derive(Args, Debug, Clone)]
pub struct WeightsFlag {
    /// Weights of the weighted scores, e.g. "LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN,
    /// BEL = 0.5 TP + 0.5 FP, BEO = 0.5 TP + 0.25 FP + 0.25 FN, LBE = 0.5 FP + 0.5 FN".
    #[arg(long = "weights", value_name = "FORMULA")]
    pub weights: Option<String>,
}

/// `--errors`.
#[derive(Args, Debug, Clone)]
pub struct ErrorsFlag {
    /// Also write one line per gold and run span (document, tokens, text, labels, error type)
    /// to this TSV file.
    #[arg(long = "errors", value_name = "FILE.tsv")]
    pub errors: Option<PathBuf>,
}

/// `--judgements` (muc).
#[derive(Args, Debug, Clone)]
pub struct JudgementsFlag {
    /// Also write every judged token (document, line, token, gold tag, run tag, judgement,
    /// type) to this TSV file.
    #[arg(long, value_name = "FILE.tsv")]
    pub judgements: Option<PathBuf>,
}

/// `--gold-dir`.
#[derive(Args, Debug, Clone)]
pub struct GoldDir {
    /// Directory of the gold files (named by the campaign's gold pattern).
    #[arg(long, value_name = "DIR")]
    pub gold_dir: PathBuf,
}

/// `--campaign`.
#[derive(Args, Debug, Clone)]
pub struct CampaignFile {
    /// Campaign TOML file: a HIPE campaign (see presets/hipe-2022.toml) or a campaign of any
    /// family's tasks (`[[task]]` with `family`, `gold`, `runs`, `rank_by`; docs/campaigns.md).
    /// codabench and codabench-bundle take both (a HIPE campaign with --resources).
    #[arg(long, value_name = "FILE")]
    pub campaign: Option<PathBuf>,
}

/// `--preset` and `--resources`: a HIPE campaign and its tag sets and QID maps.
#[derive(Args, Debug, Clone)]
pub struct HipeCampaign {
    /// Embedded HIPE campaign (leaderboard: default hipe-2022 when no --campaign is given).
    #[arg(long, value_parser = ["hipe-2022", "hipe-2020"], conflicts_with = "campaign")]
    pub preset: Option<String>,
    /// Directory of the tagset and QID map files (HIPE campaigns; not needed by a campaign of
    /// family tasks).
    #[arg(long, value_name = "DIR")]
    pub resources: Option<PathBuf>,
}

/// `--outdir`.
#[derive(Args, Debug, Clone)]
pub struct Outdir {
    /// Output directory (score: default the current directory).
    #[arg(short = 'o', long = "outdir", value_name = "DIR")]
    pub outdir: Option<PathBuf>,
}

/// `--bootstrap`, `--seed`, `--confidence`.
#[derive(Args, Debug, Clone)]
pub struct Resampling {
    /// Percentile bootstrap with N resamples of the units (documents, or sentences where the
    /// format has none; 1,000 to 10,000 is usual): an interval beside every score. For
    /// compare, the resamples of the test and interval (default 10,000; also --samples).
    /// See docs/statistics.md.
    #[arg(long = "bootstrap", alias = "samples", value_name = "N")]
    pub bootstrap: Option<String>,
    /// Seed of the resampling (default 42); the same seed gives the same bytes for any number
    /// of threads.
    #[arg(long = "seed", value_name = "S")]
    pub seed: Option<String>,
    /// Confidence level of the intervals, strictly between 0 and 1 (default 0.95).
    #[arg(long = "confidence", value_name = "C")]
    pub confidence: Option<String>,
}

/// `--beta`.
#[derive(Args, Debug, Clone)]
pub struct Beta {
    /// Also give F-beta beside every F1 (e.g. 0.5 or 2; for muc, the β of every F). A number
    /// greater than 0, at most 1e6.
    #[arg(long = "beta", value_name = "B")]
    pub beta: Option<String>,
}

/// `--json`.
#[derive(Args, Debug, Clone)]
pub struct Json {
    /// Also write the results as JSON (scores as fractions) to this file; `--json` alone or
    /// `--json -` writes it to standard output instead of the text.
    #[arg(long = "json", value_name = "PATH", num_args = 0..=1, default_missing_value = "-")]
    pub json: Option<PathBuf>,
}

/// `--table`.
#[derive(Args, Debug, Clone)]
pub struct TableFlag {
    /// Print the results as this table format: text, json, csv, tsv, markdown, html or latex
    /// (the one result table of every family, with intervals when resampled).
    #[arg(long = "table", value_name = "FORMAT")]
    pub table: Option<String>,
}

/// `--signature`.
#[derive(Args, Debug, Clone)]
pub struct SignatureFlag {
    /// Print only the signature of this scoring (family, options, resampling, short hashes
    /// of gold and run, version; docs/signatures.md) and exit; nothing is scored.
    #[arg(long = "signature")]
    pub signature: bool,
}

/// `--test`.
#[derive(Args, Debug, Clone)]
pub struct TestFlag {
    /// The test of the p-value: permutation (paired approximate randomization, default) or
    /// bootstrap (paired bootstrap, shifted-null). Use permutation for significance decisions.
    #[arg(long = "test", value_name = "TEST")]
    pub test: Option<String>,
}

/// `--family`.
#[derive(Args, Debug, Clone)]
pub struct FamilyFlag {
    /// The metric family: spans (also `ner`: named entities, labeled spans), fair, muc,
    /// segmentation, tagging, hipe, nel or mentions (entity lists of generative NER).
    #[arg(long = "family", value_name = "FAMILY")]
    pub family: Option<String>,
}

/// The inputs of `agree`: a brat project or one annotation file per annotator.
#[derive(Args, Debug, Clone)]
pub struct AgreeInputs {
    /// A brat project directory: one sub-directory per annotator, holding the same `.ann`
    /// files (with their `.txt`) by relative path, as bratiaa reads it; labels from its
    /// annotation.conf.
    #[arg(long = "project", value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// One annotator's annotations (a brat .ann file or directory, or a doccano, Label Studio
    /// or Prodigy JSON/JSONL file); give it once per annotator, two or more times.
    #[arg(long = "annotator", value_name = "PATH")]
    pub annotator: Vec<PathBuf>,
}

/// `--in`, `--out`.
#[derive(Args, Debug, Clone)]
pub struct InOut {
    /// Input file (normalize: HIPE TSV; convert: CoNLL, a doccano, Label Studio or Prodigy
    /// export, a brat .ann file or a brat directory).
    #[arg(short = 'i', long = "in", value_name = "IN")]
    pub input: PathBuf,
    /// Output file (convert to brat: a directory, created if needed).
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    pub output: PathBuf,
}

/// `--inspect` of `leaderboard`: an `inspect` page per run of every spans and fair task, or of
/// every NERC output of a HIPE campaign.
#[derive(Args, Debug, Clone)]
pub struct InspectFlag {
    /// Write each ranked run's error page (the page of `fairscore inspect`), linked from the
    /// leaderboard: inspect/SYSTEM_TASK.html for every spans and fair task of a campaign of
    /// family tasks, inspect/RUN_OUTPUT.html (the output's first column) for every NERC output
    /// of a HIPE campaign (as `inspect = true` in the campaign file)
    #[arg(long = "inspect")]
    pub inspect: bool,
}

/// `--page` (`-o`): where `inspect` writes its page.
#[derive(Args, Debug, Clone)]
pub struct PageFlag {
    /// Write the page to this file (default, or `-`: standard output).
    #[arg(short = 'o', long = "page", value_name = "PAGE.html")]
    pub page: Option<PathBuf>,
}

/// How tags and types are read: `--repair`, `--map-types`, `--keep-types`, `--remove-types`.
#[derive(Args, Debug, Clone)]
pub struct ReadChanges {
    /// Repair invalid tag transitions as seqscore does: conlleval (BIO: an I-X that cannot
    /// continue a chunk starts one; IOB: a B-X after no chunk of X is I-X) or discard (BIO:
    /// such an I-X is O). Without it an invalid transition is an error naming its line.
    #[arg(long = "repair", value_name = "conlleval|discard")]
    pub repair: Option<String>,
    /// Type map: a JSON object from each new type to the list of types it replaces, e.g.
    /// {"MISC": ["EVENT", "WORK"]} (seqscore's --type-map). Applied before keep/remove.
    #[arg(long = "map-types", visible_alias = "type-map", value_name = "FILE")]
    pub map_types: Option<PathBuf>,
    /// Keep only mentions of these types (comma-separated).
    #[arg(long = "keep-types", value_name = "T,…")]
    pub keep_types: Option<String>,
    /// Remove mentions of these types (comma-separated).
    #[arg(long = "remove-types", value_name = "T,…")]
    pub remove_types: Option<String>,
}

/// `convert`'s own flags.
#[derive(Args, Debug, Clone)]
pub struct ConvertFlags {
    /// Output format: conll, brat, doccano, labelstudio or prodigy (default: the input's).
    #[arg(long = "out-format", value_name = "FORMAT")]
    pub out_format: Option<String>,
    /// Tag encoding of a CoNLL input: BIO (IOB2, default), IOB (IOB1), BIOES (IOBES), BILOU,
    /// BMES, BMEOW or IO (seqscore's names).
    #[arg(long = "from", value_name = "ENCODING")]
    pub from: Option<String>,
    /// Tag encoding of a CoNLL output (default: the input's, or BIO from a standoff input).
    #[arg(long = "to", value_name = "ENCODING")]
    pub to: Option<String>,
    /// Write the repair log (one line per repaired tag: FILE:LINE: OLD -> NEW) to this file
    /// instead of standard error.
    #[arg(long = "repair-log", value_name = "FILE")]
    pub repair_log: Option<PathBuf>,
    /// The gold whose texts a generative run (JSONL entity lists, the input) is placed on,
    /// with --align (docs/generative.md); its documents are written with the gold's texts.
    #[arg(long = "onto", value_name = "GOLD")]
    pub onto: Option<PathBuf>,
}

/// `Put` for a flag group of text fields, each named as its setting.
macro_rules! put_text {
    ($t:ty, $($field:ident),+) => {
        impl Put for $t {
            fn put(&self, s: &mut Settings) {
                $( s.text(stringify!($field), self.$field.as_ref()); )+
            }
        }
    };
}

pub(crate) use put_text;

put_text!(Format, format);
put_text!(ColumnFlag, column);
put_text!(TaskFlag, task);
put_text!(Edition, hipe_edition);
put_text!(TagsetFlag, tagset);
put_text!(LabelListFlag, labels);
put_text!(RegimesFlag, regimes);
put_text!(WeightsFlag, weights);
put_text!(Resampling, bootstrap, seed, confidence);
put_text!(Beta, beta);
put_text!(TestFlag, test);

impl Put for HipeFlags {
    fn put(&self, s: &mut Settings) {
        s.text("n_best", self.n_best.as_ref())
            .text("noise_level", self.noise_level.as_ref())
            .text("time_period", self.time_period.as_ref())
            .text("glue", self.glue.as_ref())
            .text("relaxed", path_text(&self.relaxed));
    }
}

impl Put for NormalizeRunFlag {
    fn put(&self, s: &mut Settings) {
        s.text("normalize_run", path_text(&self.normalize_run));
    }
}

impl Put for SkipCheck {
    fn put(&self, s: &mut Settings) {
        s.flag("skip_check", self.skip_check);
    }
}

impl Put for OriginalNel {
    fn put(&self, s: &mut Settings) {
        s.flag("original_nel", self.original_nel);
    }
}

impl Put for ErrorsFlag {
    fn put(&self, s: &mut Settings) {
        s.text("errors", path_text(&self.errors));
    }
}

impl Put for JudgementsFlag {
    fn put(&self, s: &mut Settings) {
        s.text("judgements", path_text(&self.judgements));
    }
}

impl Put for ReadChanges {
    fn put(&self, s: &mut Settings) {
        s.text("repair", self.repair.as_ref());
        s.text("map_types", path_text(&self.map_types));
        s.text("keep_types", self.keep_types.as_ref());
        s.text("remove_types", self.remove_types.as_ref());
    }
}

impl Put for ConvertFlags {
    fn put(&self, s: &mut Settings) {
        s.text("out_format", self.out_format.as_ref());
        s.text("from", self.from.as_ref());
        s.text("to", self.to.as_ref());
        s.text("onto", path_text(&self.onto));
    }
}

/// Settings from several flag groups.
pub fn settings(groups: &[&dyn Put]) -> Settings {
    let mut s = Settings::new();
    for g in groups {
        g.put(&mut s);
    }
    s
}
