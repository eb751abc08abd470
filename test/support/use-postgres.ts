/** A throwaway PostgreSQL cluster per test file (see postgres.ts). */
import { afterAll, beforeAll } from "vitest";
import { postgresMissing, startPostgres, type PgCluster } from "./postgres.js";

/**
 * A cluster for the calling test file: started before its tests and stopped after them, unless
 * PostgreSQL is missing, which is then printed, prefixed with `what` ("… skipped: <reason>").
 */
export function usePostgres(what: string): {
  readonly missing: string | undefined;
  cluster(): PgCluster;
} {
  const missing = postgresMissing();
  if (missing) console.log(`${what} skipped: ${missing}.`);
  let cluster: PgCluster | undefined;
  beforeAll(async () => {
    if (!missing) cluster = await startPostgres();
  });
  afterAll(() => cluster?.stop());
  return {
    missing,
    cluster: () => {
      if (!cluster) throw new Error("the PostgreSQL cluster is not running");
      return cluster;
    },
  };
}
