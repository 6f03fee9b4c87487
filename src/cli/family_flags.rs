//! The flags of the metric families' own options (fair, spans, nel, mentions): flattened into
//! `evaluate` and `compare` (and `fair`), turned into named settings like every flag group of
//! `args.rs`; and the group of every family's options that `evaluate` and `compare` share.

use clap::Args;
use fairscore::api::Settings;

use super::args::{
    put_text, Beta, ColumnFlag, Edition, Format, HipeFlags, LabelListFlag, NormalizeRunFlag,
    OriginalNel, Put, RegimesFlag, TagsetFlag, TaskFlag, WeightsFlag,
};

/// The options of any family, as `evaluate` and `compare --family` take them: the input's
/// format and column, the tag set, regimes and weights, the families' own flags, β, and the
/// hipe family's task, edition and options.
#[derive(Args, Debug)]
pub struct FamilyOptionFlags {
    #[command(flatten)]
    pub format: Format,
    #[command(flatten)]
    pub column: ColumnFlag,
    #[command(flatten)]
    pub tagset: TagsetFlag,
    #[command(flatten)]
    pub regimes: RegimesFlag,
    #[command(flatten)]
    pub weights: WeightsFlag,
    #[command(flatten)]
    pub fair: FairFlags,
    #[command(flatten)]
    pub spans: SpansFlags,
    #[command(flatten)]
    pub nel: NelFlags,
    #[command(flatten)]
    pub mentions: MentionsFlags,
    #[command(flatten)]
    pub beta: Beta,
    #[command(flatten)]
    pub task: TaskFlag,
    #[command(flatten)]
    pub edition: Edition,
    #[command(flatten)]
    pub original_nel: OriginalNel,
    #[command(flatten)]
    pub hipe: HipeFlags,
    #[command(flatten)]
    pub normalize_run: NormalizeRunFlag,
}

impl Put for FamilyOptionFlags {
    fn put(&self, s: &mut Settings) {
        let groups: [&dyn Put; 15] = [
            &self.format,
            &self.column,
            &self.tagset,
            &self.regimes,
            &self.weights,
            &self.fair,
            &self.spans,
            &self.nel,
            &self.mentions,
            &self.beta,
            &self.task,
            &self.edition,
            &self.original_nel,
            &self.hipe,
            &self.normalize_run,
        ];
        for g in groups {
            g.put(s);
        }
    }
}

/// The fair family's own flags.
#[derive(Args, Debug, Clone)]
pub struct FairFlags {
    /// Whose label labeling (LE) and labeling-boundary (LBE) errors count for per label:
    /// target (default) or system.
    #[arg(long = "focus", value_name = "target|system")]
    pub focus: Option<String>,
    #[command(flatten)]
    pub labels: LabelListFlag,
    /// Leave out these labels (comma-separated); NONE and EMPTY are always left out.
    #[arg(long = "exclude", value_name = "L,…")]
    pub exclude: Option<String>,
    /// CoNLL only: ignore punctuation tokens (by POS tag) as the reference implementation does.
    #[arg(long = "ignore-punct", alias = "ignore_punct")]
    pub ignore_punct: bool,
    /// CoNLL only: what an I- tag continues. conlleval (default): only an open span of the
    /// same label (as conlleval and seqeval); reference: the open span of its level whatever
    /// its label (Ortmann's reference implementation).
    #[arg(long = "continuation", value_name = "conlleval|reference")]
    pub continuation: Option<String>,
}

/// The breakdown flag of the spans, fair, hipe and muc families (`evaluate`, `compare`, `fair`,
/// `muc`).
#[derive(Args, Debug, Clone)]
pub struct BreakdownFlag {
    /// spans: tables of TP, FP, FN, P, R and F1 per bucket of these span properties: label,
    /// length, chars, sentence_length, density, capitalisation, position, document, and with
    /// --train oov, train_freq, train_consistency, and for a HIPE TSV gold noise (its LED
    /// noise levels) and period (the year of its document dates); a continuous key takes its number of
    /// quantile buckets after a colon (length:6; default 4). Gold spans fall in a bucket by
    /// their own value (recall), run spans by theirs (precision). fair: per bucket the fair
    /// counts (TP, FP, FN, LE, BE, LBE) and fair P, R, F1, by the same keys (sentence_length,
    /// density, position where the tokens are known; noise and period on a HIPE TSV gold;
    /// chars, capitalisation and the training keys where the tokens' text is known). hipe (NERC
    /// tasks): the spans keys over the task's first column, strict regime. muc: per bucket the
    /// judged tokens of gold entities (COR, INC, PAR, MIS; R) and of run entities (COR, INC,
    /// PAR, SPU; P), by the spans keys; docs/breakdown.md.
    #[arg(long = "breakdown", value_name = "KEY[,KEY…]")]
    pub breakdown: Option<String>,
    /// spans, fair, hipe and muc with --breakdown oov, train_freq or train_consistency: the training file
    /// (CoNLL or HIPE TSV, read in the gold's column, CoNLL's tag column for a standoff gold;
    /// or standoff files: their texts' positions and spans).
    #[arg(long = "train", value_name = "FILE")]
    pub train: Option<String>,
}

/// The spans family's own flags.
#[derive(Args, Debug, Clone)]
pub struct SpansFlags {
    /// spans: how a run entity is paired with gold entities: hipe (default; the first gold
    /// entity it overlaps, as the HIPE scorer counts) or nervaluate (nervaluate 1.2.x: each
    /// regime and each label on its own, the closest overlapping gold entity;
    /// docs/compatibility.md).
    #[arg(long = "attribution", value_name = "hipe|nervaluate")]
    pub attribution: Option<String>,
    /// spans with --attribution nervaluate: the share of a gold entity a run entity must
    /// cover to be paired with it, in percent, 1 to 100 (default 1; nervaluate's
    /// min_overlap_percentage).
    #[arg(long = "min-overlap", alias = "min_overlap", value_name = "PCT")]
    pub min_overlap: Option<String>,
    #[command(flatten)]
    pub breakdown: BreakdownFlag,
}

/// The nel family's flags of its own.
#[derive(Args, Debug, Clone)]
pub struct NelFlags {
    /// nel, CoNLL input: the NE tag column (IOB or IOBES), a name (POS, COL3, …) or a 1-based
    /// number (default: the column before the link column, which `--column` names; default
    /// the last).
    #[arg(long = "ne-column", alias = "ne_column", value_name = "NAME")]
    pub ne_column: Option<String>,
    /// nel, brat input: the T labels that are mentions, comma-separated (default: every
    /// label); a mention without an N line is NIL.
    #[arg(
        long = "link-labels",
        alias = "link_labels",
        value_name = "LABEL[,LABEL…]"
    )]
    pub link_labels: Option<String>,
}

/// The mentions family's own flags (docs/generative.md).
#[derive(Args, Debug, Clone)]
pub struct MentionsFlags {
    /// mentions: reproduce a project's scorer: universalner, gollie or instructuie (its unit,
    /// parser, normalisation, matching and formula; further flags change single choices). The
    /// option `preset` of campaign files and Python (`--preset` names a HIPE campaign).
    #[arg(long = "mentions-preset", value_name = "NAME")]
    pub preset: Option<String>,
    /// mentions: set (duplicates dropped, default) or multiset (each gold mention matched
    /// at most once).
    #[arg(long = "match", value_name = "set|multiset")]
    pub matching: Option<String>,
    /// mentions: normalisation of the compared text: none, case, whitespace (default),
    /// squad or instructuie.
    #[arg(long = "normalize", value_name = "NORM")]
    pub normalize: Option<String>,
    /// mentions: whether the type is compared (true, default) or only the text (false).
    #[arg(long = "typed", value_name = "true|false")]
    pub typed: Option<String>,
    /// mentions: predicted types outside the schema (--labels, else the gold's types):
    /// count (scored as false positives, default) or drop.
    #[arg(long = "schema", value_name = "count|drop")]
    pub schema: Option<String>,
    /// mentions: predicted strings found nowhere in the unit's text: keep (default) or drop
    /// (GoLLIE's filter_hallucinations).
    #[arg(long = "unfound", value_name = "keep|drop")]
    pub unfound: Option<String>,
    /// mentions: whether the knowledge-base id (`kb`, `qid`, `link` or `kb_id` of an entity;
    /// HIPE's NEL-LIT column; brat's N lines) is compared too: false (default) or true.
    #[arg(long = "mentions-kb", value_name = "true|false")]
    pub kb: Option<String>,
    #[command(flatten)]
    pub run: AlignFlags,
}

/// The reading of a generative run (entity lists): the mentions family's, and the spans, fair
/// and muc families' (and `inspect`'s) when `--align` places the run on the gold's texts
/// (docs/generative.md).
#[derive(Args, Debug, Clone)]
pub struct AlignFlags {
    /// mentions (and spans, fair, muc, inspect with a generative run): what a unit is:
    /// sentence (default), document, or sentence-type (one query per sentence and type, as
    /// UniversalNER asks).
    #[arg(long = "unit", value_name = "UNIT")]
    pub unit: Option<String>,
    /// mentions: place each predicted string in the unit's text and compare offsets: off
    /// (default), exact or case (the first unused occurrence at word boundaries), or fuzzy
    /// (exact, then case, then the closest window: one character in four may differ). With
    /// spans, fair, muc or inspect: the run is a generative run (JSONL entity lists) placed
    /// on the gold's texts this way.
    #[arg(long = "align", value_name = "MODE")]
    pub align: Option<String>,
    /// The fuzzy step's bound (--align fuzzy): the share of a string's characters that may be
    /// inserted or deleted, from 0 to 1 (default 0.25, one in four).
    #[arg(long = "align-threshold", value_name = "SHARE")]
    pub align_threshold: Option<String>,
    /// mentions (and a generative run of spans, fair, muc, inspect): the parser of raw
    /// answers: auto (default), json-list, pairs or python.
    #[arg(long = "parser", value_name = "PARSER")]
    pub parser: Option<String>,
}

put_text!(BreakdownFlag, breakdown, train);

impl Put for SpansFlags {
    fn put(&self, s: &mut Settings) {
        s.text("attribution", self.attribution.as_ref())
            .text("min_overlap", self.min_overlap.as_ref());
        self.breakdown.put(s);
    }
}
put_text!(NelFlags, ne_column, link_labels);

impl Put for MentionsFlags {
    fn put(&self, s: &mut Settings) {
        s.text("preset", self.preset.as_ref())
            .text("match", self.matching.as_ref())
            .text("normalize", self.normalize.as_ref())
            .text("typed", self.typed.as_ref())
            .text("schema", self.schema.as_ref())
            .text("unfound", self.unfound.as_ref())
            .text("kb", self.kb.as_ref());
        self.run.put(s);
    }
}

put_text!(AlignFlags, unit, align, align_threshold, parser);

impl Put for FairFlags {
    fn put(&self, s: &mut Settings) {
        s.text("focus", self.focus.as_ref());
        self.labels.put(s);
        s.text("exclude", self.exclude.as_ref());
        s.flag("ignore_punct", self.ignore_punct);
        s.text("continuation", self.continuation.as_ref());
    }
}
