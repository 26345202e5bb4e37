import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { mailContract } from "./MailContract.ts"

mailContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
