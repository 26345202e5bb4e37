import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { merchantsHoursContract } from "./MerchantsHoursContract.ts"

merchantsHoursContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
