import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { mailHttpSuite } from "./MailHttpSuite.ts"

mailHttpSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
