import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { tagsHttpSuite } from "./TagsHttpSuite.ts"

tagsHttpSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
