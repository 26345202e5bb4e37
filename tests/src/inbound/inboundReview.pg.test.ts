import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { inboundReviewSuite } from "./InboundReviewSuite.ts"

inboundReviewSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
