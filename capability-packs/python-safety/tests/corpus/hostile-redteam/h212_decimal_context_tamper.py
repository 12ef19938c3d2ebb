import decimal
decimal.DefaultContext.prec = 2
decimal.getcontext().prec = 2
