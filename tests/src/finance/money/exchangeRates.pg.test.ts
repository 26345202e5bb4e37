import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { exchangeRatesContract } from "./ExchangeRatesContract.ts"

exchangeRatesContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
