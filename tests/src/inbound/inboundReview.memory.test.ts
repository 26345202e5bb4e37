import { PortsMemory } from "@svc/adapters-memory"
import { inboundReviewSuite } from "./InboundReviewSuite.ts"

inboundReviewSuite("memory", PortsMemory)
