import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { cryptoContract } from "./CryptoContract.ts"

cryptoContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
