import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { oauthApplicationsContract } from "./OAuthApplicationsContract.ts"

oauthApplicationsContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
