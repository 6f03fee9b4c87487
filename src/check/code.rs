//! Every kind of finding of `fairscore check`: [`Code`] knows its stable string (the `code` of
//! the JSON output, listed in `docs/errors.md`), its [`Severity`] and its default hint, and
//! [`Code::of_notice`] says which finding each reader notice becomes.

use crate::corpus::NoticeKind;

/// How serious a finding is; ordered most serious first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// `fairscore score` (and the official scorer) would reject the run or fail on it.
    Error,
    /// The run would be scored, but not as intended.
    Warning,
    /// Harmless, or read exactly as the official scorer reads it.
    Note,
}

impl Severity {
    /// The lower-case name (`error`, `warning`, `note`), as in the text and JSON reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// Declares [`Code`] from one table: per code its doc, variant, stable string, severity and
/// default hint, so that the string, severity and hint of a code cannot drift apart and
/// [`Code::ALL`] cannot miss one.
macro_rules! codes {
    ($($(#[doc = $doc:literal])* $name:ident = $code:literal, $sev:ident, $hint:expr;)*) => {
        /// One kind of finding. A few string codes have two severities (an alignment that
        /// fails or only ignores tokens, a task left empty in full or in part): they are two
        /// variants.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $($(#[doc = $doc])* $name,)*
        }

        impl Code {
            /// Every code, most serious first.
            pub const ALL: &'static [Code] = &[$(Code::$name,)*];

            /// The stable short name of the code (the JSON `code`; see `docs/errors.md`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$name => $code,)*
                }
            }

            /// How serious a finding of this code is.
            pub fn severity(self) -> Severity {
                match self {
                    $(Code::$name => Severity::$sev,)*
                }
            }

            /// Whether a finding of this code means the file could not be read as a run
            /// (so it may be of another kind than the command reads: the CLI's hint).
            pub fn unreadable(self) -> bool {
                matches!(
                    self,
                    Code::Encoding
                        | Code::LineEnds
                        | Code::Header
                        | Code::MissingColumn
                        | Code::ExtraCells
                        | Code::NoTokens
                        | Code::Unreadable
                )
            }

            /// How to fix it (empty when there is nothing to do); a finding may give a more
            /// precise hint of its own.
            pub fn hint(self) -> &'static str {
                match self {
                    $(Code::$name => $hint,)*
                }
            }
        }
    };
}

/// The masked-gold hint when a label list was given (nothing more to pass).
pub(crate) const MASKED_WITH_LIST: &str =
    "check again against the annotated gold once it is published";

codes! {
    /// The file name does not follow the edition's convention.
    FileName = "file-name", Error,
        "rename the run (the official scorer rejects it; `score --skip-check` scores it anyway); is --hipe_edition right?";
    /// Not UTF-8.
    Encoding = "encoding", Error,
        "save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8`, or `-f utf-16`)";
    /// Bare-CR line ends, or a carriage return inside the header line.
    LineEnds = "line-ends", Error, "convert line ends to LF (e.g. `tr '\\r' '\\n'`)";
    /// No usable header line.
    Header = "header", Error, "start the file with the gold's header line";
    /// A column the checked tasks need is missing from the run.
    MissingColumn = "missing-column", Error,
        "use the gold's header, with every column, and fill the columns of tasks you do not take part in with `_`";
    /// The gold lacks a column of the checked tasks.
    GoldColumn = "gold-column", Error,
        "use the gold of the edition and task you submit for (--hipe_edition, --task)";
    /// A token row with more non-empty cells than the header has columns.
    ExtraCells = "extra-cells", Error,
        "a tab inside a token splits the row: remove tabs from tokens, or remove the extra cells";
    /// A header and no token rows.
    NoTokens = "no-tokens", Error, "write one row per gold token";
    /// Anything else the reader rejects.
    Unreadable = "unreadable", Error, "fix the file so that it can be read";
    /// The run's documents or tokens do not line up with the gold's.
    Alignment = "alignment", Error,
        "the run must have the gold's documents and tokens, in the gold's order; is it the gold of the same data set and language?";
    /// Column files (CoNLL, CoNLL-U, TSV, text): a sentence break in one file that the other
    /// does not have at the same token.
    SentenceBreak = "sentence-break", Error,
        "keep the gold's sentences: one blank line where the gold has one, none elsewhere";
    /// Column files: the run ends before the gold (tokens or sentences missing).
    MissingTokens = "missing-tokens", Error,
        "the run must have every gold token (and sentence); did the system skip or drop lines?";
    /// Column files: the run goes on after the gold's end.
    ExtraTokens = "extra-tokens", Error,
        "the run must have exactly the gold's tokens; remove the extra lines";
    /// CoNLL files: other sentence breaks than the gold's, with the same tokens: the run is
    /// read with the gold's breaks (as conlleval), so entities across them may change.
    SentenceBreakRead = "sentence-break", Warning,
        "keep the gold's sentences; the run is scored with the gold's sentence breaks";
    /// A tag value outside the tag set (`--tagset`).
    UnknownTag = "unknown-tag", Warning,
        "use the tag set's values (see the closest valid one); is --tagset the campaign's?";
    /// Run tokens or segments that the alignment ignores.
    AlignmentIgnored = "alignment", Warning, "the run must have exactly the gold's tokens";
    /// A column name twice: only the first is read.
    DuplicateColumn = "duplicate-column", Warning, "remove or rename the second column";
    /// Token rows with fewer cells than columns.
    MissingCells = "missing-cells", Warning, "write every column on every token row";
    /// A row with an empty TOKEN cell but other cells.
    EmptyToken = "empty-token", Warning,
        "every token row needs its token in the first column; remove stray leading tabs";
    /// A token row starting with `#`, read as a comment, that the gold does not have.
    HashToken = "hash-token", Warning,
        "tokens starting with `#` are read as comments; keep exactly the gold's rows";
    /// A carriage return inside a line.
    CarriageReturn = "carriage-return", Warning, "use LF or CRLF line ends only";
    /// A tag that is not `O` or `B-`/`I-`/`S-`/`E-TYPE`.
    TagSyntax = "tag-syntax", Warning,
        "tags are O, B-TYPE, I-TYPE (or S-TYPE, E-TYPE); no spaces around them";
    /// `_` in a tag column that has tags elsewhere.
    EmptyTag = "empty-tag", Warning, "use `O` for tokens outside entities";
    /// Nothing of a task would be scored: every column of it holds only `_`.
    EmptyColumn = "empty-column", Warning,
        "check --task (or the bundle in the file name); fill tag columns with `O` for tokens outside entities";
    /// A run entity type that the gold (and the tagset) does not know.
    UnknownLabel = "unknown-label", Warning,
        "use the campaign's labels; pass the campaign's label list (--labels FILE) to check against it";
    /// A link candidate that is not a QID, `NIL` or `_`.
    LinkSyntax = "link-syntax", Warning,
        "write bare QIDs like Q42, NIL for entities without a Wikidata entry, `_` for no link";
    /// An empty candidate in a candidate list.
    EmptyCandidate = "empty-candidate", Warning,
        "candidate lists are Q1|Q2|…; remove doubled or trailing `|`";
    /// A `_` link inside a linked entity.
    SplitLink = "split-link", Warning, "give every token of an entity the entity's link";
    /// Token texts that differ from the gold's.
    TokenText = "token-text", Warning,
        "copy the tokens from the gold file instead of re-tokenizing or normalizing them";
    /// A document id that differs from the gold's at the same position.
    DocumentId = "document-id", Warning, "keep the gold's documents in the gold's order";
    /// Standoff runs: a span that covers no text, or only whitespace (left out of scoring).
    EmptySpan = "empty-span", Warning,
        "check the span's offsets: they must cover the entity's text";
    /// Standoff runs: the same label over the same fragments twice in a document.
    DuplicateSpan = "duplicate-span", Warning,
        "give each span once: scoring counts a span given twice once";
    /// The run's name says another data set or language than the gold's.
    DataSetName = "data-set-name", Warning,
        "check that the run is scored against the gold of its own data set and language";
    /// The gold carries no annotations (a masked test file): only structure and syntax are
    /// checked.
    MaskedGold = "masked-gold", Note,
        "check again against the annotated gold once it is published; pass the campaign's label list (--labels FILE) to check labels now";
    /// Standoff runs: whitespace at the start or end of a span (not scored: `Anna ` is
    /// `Anna`).
    SpanWhitespace = "span-whitespace", Note, "trim whitespace from span edges";
    /// A UTF-8 byte-order mark.
    Bom = "bom", Note,
        "other tools may read it as part of the first column name; save as UTF-8 without BOM";
    /// CRLF line ends.
    Crlf = "crlf", Note, "";
    /// Empty cells after the last column (trailing tabs).
    ExtraEmptyCells = "extra-empty-cells", Note, "remove the trailing tabs";
    /// Gold columns not in the run, not needed for the checked tasks.
    GoldColumns = "gold-columns", Note,
        "keep the gold's header in the run so that every task can be scored";
    /// Run columns that the gold does not have.
    ExtraColumns = "extra-columns", Note, "";
    /// Some columns of a task hold only `_` (or the task was only inferred).
    EmptyColumnPartial = "empty-column", Note,
        "check --task (or the bundle in the file name); fill tag columns with `O` for tokens outside entities";
    /// Lower-case tags, upper-cased when read.
    LowerCase = "lower-case", Note, "";
    /// IOBES tags, read as IOB.
    Iobes = "iobes", Note, "write IOB tags to be sure of what is scored";
    /// `I-X` not continuing an `X` entity.
    IWithoutB = "i-without-b", Note, "start each entity with B-";
    /// A token row starting with `#`, read as a comment in the gold too.
    HashTokenGold = "hash-token-gold", Note,
        "tokens starting with `#` are read as comments; keep exactly the gold's rows";
    /// A candidate listed twice.
    DuplicateCandidate = "duplicate-candidate", Note,
        "each candidate takes one of the n_best places; list it once";
    /// An entity without a link where the gold links it.
    MissingLink = "missing-link", Note,
        "link every entity: a QID, or NIL when it has no Wikidata entry";
    /// No document markers: the run is cut into the gold's documents.
    NoDocuments = "no-documents", Note,
        "copy the gold's `# hipe2022:document_id` comments into the run";
    /// A date comment without a valid date.
    Date = "date", Note, "write dates as YYYY-MM-DD";
}

impl Code {
    /// The finding a reader or alignment notice becomes (a comment row becomes
    /// [`Code::HashTokenGold`] instead when the gold has the same row).
    pub fn of_notice(kind: NoticeKind) -> Code {
        match kind {
            NoticeKind::Bom => Code::Bom,
            NoticeKind::Crlf => Code::Crlf,
            NoticeKind::CarriageReturn => Code::CarriageReturn,
            NoticeKind::MissingCells => Code::MissingCells,
            NoticeKind::ExtraEmptyCells => Code::ExtraEmptyCells,
            NoticeKind::EmptyTokenRow => Code::EmptyToken,
            NoticeKind::CommentRow => Code::HashToken,
            NoticeKind::Iobes => Code::Iobes,
            NoticeKind::LowerCase => Code::LowerCase,
            NoticeKind::InvalidDate => Code::Date,
            NoticeKind::DocumentsReconstructed => Code::NoDocuments,
            NoticeKind::LeftoverTokens | NoticeKind::ExtraSegments => Code::AlignmentIgnored,
            NoticeKind::SentenceBreaks => Code::SentenceBreakRead,
        }
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_lists_every_code_once_most_serious_first() {
        let mut seen = std::collections::BTreeSet::new();
        for &c in Code::ALL {
            assert!(seen.insert(c), "{c:?} twice");
        }
        let sev: Vec<Severity> = Code::ALL.iter().map(|c| c.severity()).collect();
        let mut sorted = sev.clone();
        sorted.sort();
        assert_eq!(sev, sorted);
        // A string code has at most one variant per severity.
        let mut pairs = std::collections::BTreeSet::new();
        for &c in Code::ALL {
            assert!(pairs.insert((c.as_str(), c.severity())), "{c:?}");
        }
    }
}
