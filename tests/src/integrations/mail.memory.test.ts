import { PortsMemory } from "@svc/adapters-memory"
import { mailContract } from "./MailContract.ts"

mailContract("in-memory", PortsMemory)
