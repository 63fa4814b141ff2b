/**
 * A bench's entry: runs `main`, and on an error prints it and exits 1 (the runtimes a bench starts are
 * child processes that its own `finally` stops; exiting also ends any load still in flight).
 */
export function runBench(main: () => Promise<void>): void {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
