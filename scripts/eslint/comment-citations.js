// ESLint rule: a comment cites what the project holds (openapi.json, a test, a file, a README
// section), never a tracker's issue number or a document that is not in the repository.
"use strict";

/** Public references that carry a number and stay: URLs and `owner/repo#N` or `office-js#N`. */
const PUBLIC_REFERENCE =
  /\bhttps?:\/\/\S+|\b(?:office-js|Excel-Custom-Functions)(?:'s)?\s+issues?\s+#?\d+|[\w.-]+(?:\/[\w.-]+)?#\d+/g;
/** "issue" or "issues" (either case), an optional "#", then a number. */
const ISSUE_NUMBER = /\b[Ii]ssues? ?#?\d+/;
/** Documents outside the repository (the spec, the house notes). */
const MISSING_DOCUMENT =
  /\bREFERENCE(?:\.md)?\b|HOUSE_STYLE|DEVELOPERS\.md|listed-company-data-service\.md/;

/**
 * What `text` cites that it should not (an issue number, a missing document), or undefined.
 * @param {string} text
 * @returns {{ messageId: "issueNumber" | "missingDocument", found: string } | undefined}
 */
function badCitation(text) {
  const issue = ISSUE_NUMBER.exec(text.replace(PUBLIC_REFERENCE, " "));
  if (issue) return { messageId: "issueNumber", found: issue[0] };
  const doc = MISSING_DOCUMENT.exec(text);
  return doc ? { messageId: "missingDocument", found: doc[0] } : undefined;
}

/** @type {import("eslint").Rule.RuleModule & { badCitation: typeof badCitation }} */
module.exports = {
  badCitation,
  meta: {
    type: "suggestion",
    docs: {
      description:
        "Comments cite the contract, a test, a file or a README section, not an issue number or a document the project lacks",
    },
    schema: [],
    messages: {
      issueNumber:
        'Comment cites "{{ found }}": say why, citing openapi.json, a test, a file or a README section instead.',
      missingDocument:
        'Comment cites "{{ found }}", which the project does not hold: cite openapi.json, a test, a file, a README section or a public page.',
    },
  },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          const bad = badCitation(comment.value);
          if (bad) {
            context.report({
              loc: comment.loc,
              messageId: bad.messageId,
              data: { found: bad.found },
            });
          }
        }
      },
    };
  },
};
