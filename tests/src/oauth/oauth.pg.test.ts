import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { oauthContract } from "./OAuthContract.ts"

oauthContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
