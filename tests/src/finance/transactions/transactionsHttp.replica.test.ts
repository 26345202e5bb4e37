import { PortsPg } from "@svc/adapters-pg"
import { ReplicaOnTestDatabase, TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { transactionsHttpSuite } from "./TransactionsHttpSuite.ts"

// The transaction lists read on a replica pool of their own (ADR 0052): the same answers as on the primary.
transactionsHttpSuite(
  "Postgres, lists on a read replica",
  PortsPg.pipe(Layer.provideMerge(ReplicaOnTestDatabase), Layer.provideMerge(TestDatabase))
)
