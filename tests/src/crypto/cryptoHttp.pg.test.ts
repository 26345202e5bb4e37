import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { cryptoHttpSuite } from "./CryptoHttpSuite.ts"

cryptoHttpSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
