import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { bankFeedSuite } from "./BankFeedSuite.ts"

bankFeedSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
