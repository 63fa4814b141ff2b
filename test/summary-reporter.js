// Prints the plain closing line CI reads: "N passed, N failed, N skipped".
class SummaryReporter {
  onRunComplete(_contexts, results) {
    process.stdout.write(`\n${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests + results.numTodoTests} skipped\n`);
  }
}
module.exports = SummaryReporter;
