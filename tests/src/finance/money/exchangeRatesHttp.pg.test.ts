import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { exchangeRatesHttpSuite } from "./ExchangeRatesHttpSuite.ts"

exchangeRatesHttpSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
