.PHONY: check bench bot
check:
	python3 tasks.py check
bench:
	python3 tasks.py bench
bot:
	python3 tasks.py bot
