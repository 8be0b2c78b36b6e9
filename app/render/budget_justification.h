#pragma once

// The budget justification a PI pastes into a proposal and edits: a few plain, factual
// paragraphs generated from the scenario and its grant budget. Every number comes from the same
// core figures and the same formatting as the budget table and the report, so the text and the
// tables agree exactly. Written as Markdown, plain text, or ODF text (opens in Word and
// LibreOffice).

#include "core/costing/grant_budget.h"

#include <QString>
#include <QStringList>

#include <optional>

#include <vector>

class QTextDocument;

namespace gpuplan::render {

struct JustificationBlock {
    enum class Kind { Heading, Paragraph, Bullets };
    Kind kind = Kind::Paragraph;
    QString text; // heading or paragraph
    QStringList items; // bullets
};
using Justification = std::vector<JustificationBlock>;

Justification budgetJustification(const Results& results, BudgetTarget target,
    const GrantPlan& plan, const SponsorRules& sponsor, const GrantBudget& budget);

// "No machine with the same GPUs (4×A100 SXM 80GB) is for sale in this price set, …": where a
// budget rents GPUs no machine is sold with (the justification and the report).
QString noMachineForSaleText(const CloudOption& rented);

// "Buying the same GPUs instead (…) was considered. Under these budget rules, …": buying
// weighed against renting (`rental`, a Rented target), both budgeted for this plan by the
// sponsor's rules (the justification of a rental, and the report where its budget rents an
// offer the planner's per-run comparison cannot weigh).
QString buyingWeighedAgainstRenting(const Results& results, BudgetTarget rental,
    const GrantPlan& plan, const SponsorRules& sponsor);

QString toMarkdown(const Justification& justification);
QString toPlainText(const Justification& justification);
// Headings, paragraphs and bulleted lists in `document` (cleared first).
void fillDocument(const Justification& justification, QTextDocument& document);

// Writes .odt, .md or .txt by the file's extension, atomically (QSaveFile). False with *error
// set on an unknown extension or a write failure.
bool writeJustification(const Justification& justification, const QString& path, QString* error);

} // namespace gpuplan::render
