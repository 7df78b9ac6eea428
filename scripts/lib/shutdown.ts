/** Runs the cleanups once on SIGINT/SIGTERM, then exits. */
export function onShutdown(cleanup: () => Promise<void>) {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[start] ${signal} received, shutting down`);
    try {
      await cleanup();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
